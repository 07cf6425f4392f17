// A webhook receiver: verifies each request on its raw body, answers at once, and handles each event once.
//   SVC_WEBHOOK_SECRET=whsec_… PORT=3000 npx tsx examples/webhook-receiver.ts
// Delivery is at-least-once, so a repeated eventId is acknowledged (2xx, or it is sent again) but not handled
// twice. This keeps the ids in memory; a real receiver keeps them in its database with a unique constraint.
// In an application, import from '@svc/sdk' instead of the repository's source.
import { createServer, type IncomingMessage } from 'node:http';
import { SIGNATURE_HEADER, verifyWebhook, WebhookVerificationError, type CallEvent } from '../sdk/src/index.js';

const secret = process.env.SVC_WEBHOOK_SECRET;
if (!secret) {
  console.error('Set SVC_WEBHOOK_SECRET to the account’s webhook signing secret (npm start prints the dev one).');
  process.exit(2);
}
const seen = new Set<string>();

function handle(event: CallEvent): void {
  // One line per event; an application would update its own records here.
  console.log(JSON.stringify({ event: event.event, callId: event.callId, status: event.status, summary: event.summary, extracted: event.extracted }));
}

async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const server = createServer(async (req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const body = await rawBody(req);
  let event: CallEvent;
  try {
    event = verifyWebhook(body, req.headers[SIGNATURE_HEADER.toLowerCase()], secret);
  } catch (e) {
    if (!(e instanceof WebhookVerificationError)) throw e;
    console.error(`rejected: ${e.reason}`);
    return void res.writeHead(400, { 'content-type': 'text/plain' }).end(e.reason);
  }
  res.writeHead(204).end();
  if (seen.has(event.eventId)) return void console.error(`duplicate ${event.eventId}`);
  seen.add(event.eventId);
  handle(event);
});

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.error(`listening on http://127.0.0.1:${port}`);
});
