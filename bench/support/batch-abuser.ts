// One batch abuser per key, in a process of its own so that the bench's measuring loop shares nothing with it: each
// sends the same body as a batch, again as soon as it is answered, until SIGTERM, then prints how its batches were
// answered (`answered {"400 invalid_batch": n, …}`). The body is one of door-abuse.ts's (BENCH_ABUSE_KIND).
//   BENCH_URL, BENCH_KEYS (comma-separated), BENCH_ABUSE_KIND (invalid_calls | invalid_json)
import http from 'node:http';
import { abuseBody } from './abuse-bodies.js';

const url = new URL(process.env.BENCH_URL!);
const keys = process.env.BENCH_KEYS!.split(',');
const body = abuseBody(process.env.BENCH_ABUSE_KIND as 'invalid_calls' | 'invalid_json');
const answered = new Map<string, number>();
let stopping = false;

function send(key: string): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: '/v1/agent/batches', method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const token = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: string }).error ?? '';
          const k = `${res.statusCode} ${token}`.trim();
          answered.set(k, (answered.get(k) ?? 0) + 1);
          resolve();
        });
      },
    );
    req.on('error', () => resolve());
    req.end(body);
  });
}

async function loop(key: string): Promise<void> {
  while (!stopping) await send(key);
}

process.on('SIGTERM', () => {
  stopping = true;
  console.log(`answered ${JSON.stringify(Object.fromEntries(answered))}`);
  process.exit(0);
});
console.log('ready');
await Promise.all(keys.map(loop));
