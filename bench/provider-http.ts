// What one streamed answer of a vendor costs svc's event loop: the client's CPU for a POST whose answer comes as 20
// server-sent events 5 ms apart (a chat reply), 100 at once, read the way each client reads it:
//   - baseline, in the same run: fetch (undici), the body through a TextDecoderStream and its reader, as the chat
//     model read it before;
//   - svc: speech/provider-http.ts (node:http, connections kept alive), the body as UTF-8 chunks.
// The server is a child process, so the CPU measured (process.cpuUsage of this process) is the client's alone.
// Medians of the rounds.
//   npx tsx bench/provider-http.ts [rounds=5] [batches=10] [concurrent=100]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ProviderHttp } from '../server/src/speech/provider-http.js';
import { median } from './support/harness.js';

const rounds = Number(process.argv[2] ?? 5);
const batches = Number(process.argv[3] ?? 10);
const concurrent = Number(process.argv[4] ?? 100);
const EVENTS = 20;

const SERVER = `
const http = require('node:http');
const srv = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const t = setInterval(() => {
      res.write('data: {"choices":[{"index":0,"delta":{"content":"word ' + i + ' "}}]}\\n\\n');
      if (++i >= ${EVENTS}) { clearInterval(t); res.end('data: [DONE]\\n\\n'); }
    }, 5);
  });
});
srv.keepAliveTimeout = 60000;
srv.listen(0, '127.0.0.1', () => console.log('ready ' + srv.address().port));
`;

const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<number>((resolve) => {
  createInterface({ input: server.stdout! }).on('line', (line) => {
    const m = /^ready (\d+)$/.exec(line);
    if (m) resolve(Number(m[1]));
  });
});
const url = new URL(`http://127.0.0.1:${port}/v1/chat/completions`);
const body = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'system', content: 'x'.repeat(2000) }] });
const headers = { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer k' };

async function viaFetch(): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let chars = 0;
  for (let c = await reader.read(); !c.done; c = await reader.read()) chars += c.value.length;
  return chars;
}

const client = new ProviderHttp();
async function viaNodeHttp(): Promise<number> {
  const res = await client.post(url, headers, body, new AbortController().signal);
  res.utf8();
  let chars = 0;
  for (let c = await res.next(); !c.done; c = await res.next()) chars += c.value.length;
  return chars;
}

const targets = [
  { name: 'fetch (undici, web streams)', run: viaFetch },
  { name: 'svc: node:http (provider-http.ts)', run: viaNodeHttp },
];
const cpu: number[][] = targets.map(() => []);
const wall: number[][] = targets.map(() => []);
// One warm-up batch each, so neither pays its first connections and compilation in the figures.
for (const t of targets) await Promise.all(Array.from({ length: concurrent }, () => t.run()));
for (let r = 0; r < rounds; r++) {
  for (const [i, t] of targets.entries()) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let b = 0; b < batches; b++) {
      const sizes = await Promise.all(Array.from({ length: concurrent }, () => t.run()));
      if (sizes.some((n) => n !== sizes[0])) throw new Error(`${t.name}: answers of different lengths`);
    }
    const used = process.cpuUsage(c0);
    const requests = batches * concurrent;
    cpu[i]!.push((used.user + used.system) / 1000 / requests);
    wall[i]!.push((performance.now() - t0) / batches);
  }
}
server.kill();
client.close();

console.log(
  `\nA streamed answer's cost to the client: ${concurrent} POSTs at once, each answered with ${EVENTS} server-sent events 5 ms apart; ${batches} batches a round, ${rounds} rounds, Node ${process.version} — medians of the rounds\n`,
);
console.log('| client | CPU ms a request | batch wall ms | CPU ratio to baseline |');
console.log('|---|---:|---:|---|');
const base = median(cpu[0]!);
for (const [i, t] of targets.entries()) {
  const c = median(cpu[i]!);
  console.log(`| ${t.name} | ${c.toFixed(3)} | ${median(wall[i]!).toFixed(1)} | ${i === 0 ? 'baseline' : (c / base).toFixed(2)} |`);
}
