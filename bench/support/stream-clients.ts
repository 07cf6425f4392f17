// Live-stream clients in a process of their own (so that reading thousands of sockets does not slow the process
// that measures latency): opens `n` streams of /v1/agent/stream, every other one reading or none, asks for a
// replay from the start when told to, and answers on stdout: "opened <n>" once every stream has its answer's head,
// then "events <n>" whenever it is sent "count" on stdin. It closes every stream and exits on "close".
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';

const [url, key, n, readers, replay] = [process.argv[2], process.argv[3], Number(process.argv[4]), process.argv[5], process.argv[6] === 'replay'];
const { port } = new URL(url);
let opened = 0;
let events = 0;
const refused: string[] = [];
const sockets: Socket[] = [];

function open(reads: boolean): Socket {
  const s = connect(Number(port), '127.0.0.1');
  s.on('error', (err: NodeJS.ErrnoException) => {
    if (head !== null) refused.push(`socket error ${err.code}`);
    if (head !== null && opened + refused.length === n) process.stdout.write(`opened ${opened} ${JSON.stringify(refused.slice(0, 3))}\n`);
    head = null as unknown as string;
  });
  let head = '';
  s.write(`GET /v1/agent/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${replay ? 'Last-Event-ID: 0\r\n' : ''}\r\n`);
  s.on('data', (chunk: Buffer) => {
    const text = chunk.toString('latin1');
    if (head !== null) {
      head += text;
      if (!head.includes('\r\n')) return;
      if (head.startsWith('HTTP/1.1 200')) opened++;
      else refused.push(head.slice(0, 300));
      head = null as unknown as string;
      // A client that never reads stops once the answer's head is in.
      if (!reads) s.pause();
      if (opened + refused.length === n) process.stdout.write(`opened ${opened} ${JSON.stringify(refused.slice(0, 3))}\n`);
    }
    for (let i = text.indexOf('\nevent: '); i !== -1; i = text.indexOf('\nevent: ', i + 1)) events++;
  });
  return s;
}

for (let i = 0; i < n; i++) {
  sockets.push(open(readers === 'half' ? i % 2 === 0 : readers === 'all'));
  if (i % 50 === 49) await new Promise((r) => setTimeout(r, 50));
}
// Whatever has not answered within a minute is reported as such.
setTimeout(() => {
  if (opened + refused.length < n) process.stdout.write(`opened ${opened} ${JSON.stringify([`${n - opened - refused.length} without an answer`, ...refused.slice(0, 3)])}\n`);
}, 60_000).unref();
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'count') process.stdout.write(`events ${events}\n`);
  if (line === 'close') {
    for (const s of sockets) s.destroy();
    process.exit(0);
  }
});
