// Places a sandbox call, waits for its outcome, and prints the record: what most applications do first.
//   SVC_API_KEY=svc_ak_… npx tsx examples/place-and-wait.ts
// Optional: SVC_BASE_URL (default http://localhost:8080), SVC_WEBHOOK_URL to also receive its events.
// In an application, import from '@svc/sdk' instead of the repository's source.
import { SvcApiError, SvcClient } from '../sdk/src/index.js';

const apiKey = process.env.SVC_API_KEY;
if (!apiKey) {
  console.error('Set SVC_API_KEY to an agent API key (npm start prints the dev key).');
  process.exit(2);
}
const svc = new SvcClient({ apiKey, baseUrl: process.env.SVC_BASE_URL || undefined, retries: { maxAttempts: 3 } });

try {
  const placed = await svc.placeCall({
    to: '+14155550123',
    objective: 'Ask whether the shop is open on Sunday, and until what time.',
    fields: [
      { name: 'open_sunday', type: 'boolean', description: 'Whether the shop opens on Sundays' },
      { name: 'closing_time', description: 'When it closes on Sunday' },
    ],
    webhookUrl: process.env.SVC_WEBHOOK_URL || null,
  });
  console.error(`placed ${placed.callId} (${placed.language}, voice ${placed.voice}); waiting for it to end…`);
  const call = await svc.waitForCall(placed.callId, { timeoutMs: 5 * 60_000, intervalMs: 500 });
  console.error(`${call.status}: ${call.summary ?? call.error ?? ''}`);
  console.log(JSON.stringify(call));
} catch (e) {
  // The token is the stable part: branch on it, show the message to people.
  if (e instanceof SvcApiError) console.error(`${e.status} ${e.token}: ${e.message}`);
  else console.error(e);
  process.exit(1);
}
