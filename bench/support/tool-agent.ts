// svc's side of bench/tool-latency.ts, as a process of its own: the realtime agent as main.ts builds it (its
// ClientTools with SVC_WEBHOOK_ALLOW_PRIVATE's address rule, and an https agent that trusts the bench's own
// certificate), on the bench's store, joined to one line per call (a line that plays at once). Told over IPC:
// `hear` (each line hears a frame of the callee), `bare` (N plain HTTPS POSTs of a body at once from this same
// process, the baseline, each timed to its answer's JSON parsed), `cpu` (the CPU time this process has used, µs),
// `stop`.
import http from 'node:http';
import https from 'node:https';
import { pino } from 'pino';
import { lineBriefOf } from '../../server/src/conversation/conversation.js';
import { openStore } from '../../server/src/store/open-store.js';
import type { Consultation, LineSession, LiveLine } from '../../server/src/telephony/live-line.js';
import { ClientTools } from '../../server/src/voice-agent/client-tools.js';
import { RealtimeAgent } from '../../server/src/voice-agent/realtime-agent.js';
import { GA_PROTOCOL } from '../../server/src/voice-agent/realtime-protocol.js';
import { CALL_TOOLS } from '../../server/src/voice-agent/tools.js';

export type AgentCommand =
  | { type: 'start'; store: { sqlitePath: string } | { postgresUrl: string }; ids: string[]; realtimeUrl: string; ca: string }
  | { type: 'hear' }
  | { type: 'bare'; url: string; body: string; n: number }
  | { type: 'cpu' }
  | { type: 'stop' };

const send = (m: unknown) => process.send!(m);
let stop: (() => Promise<void>) | null = null;
let sessions: LineSession[] = [];
let bareAgent: https.Agent | null = null;
const frame = Buffer.alloc(160, 0xff).toString('base64');

function instantLine(): LiveLine & { session: LineSession | null } {
  const line = {
    session: null as LineSession | null,
    play() {},
    mark(name: string) {
      setImmediate(() => line.session?.marked(name));
    },
    clear() {},
    sendDigits() {},
    hangUp: async () => undefined,
    transfer: async () => undefined,
    consult: (): Consultation => ({ outcome: Promise.resolve('failed'), stillThere: async () => false, join: async () => undefined, release: async () => undefined }),
  };
  return line;
}

function barePost(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = https.request(url, { method: 'POST', agent: bareAgent!, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve(performance.now() - started);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

process.on('message', async (m: AgentCommand) => {
  if (m.type === 'start') {
    const store = openStore('sqlitePath' in m.store ? { sqlitePath: m.store.sqlitePath } : { postgresUrl: m.store.postgresUrl, poolSize: 10 });
    const clientTools = new ClientTools(store.db, { allowPrivate: true, agents: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true, ca: m.ca }) } });
    // No greeting: the callee speaks first in every round.
    const agent = new RealtimeAgent(store.db, { url: m.realtimeUrl, model: 'gpt-realtime', protocol: GA_PROTOCOL, apiKey: 'sk-bench', greetAfterMs: 3_600_000 }, CALL_TOOLS, { clientTools });
    bareAgent = new https.Agent({ keepAlive: true, ca: m.ca });
    const logger = pino({ level: 'silent' });
    for (const id of m.ids) {
      const row = await store.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const line = instantLine();
      const session = agent.join(lineBriefOf(row), line, logger);
      line.session = session;
      sessions.push(session);
    }
    stop = async () => {
      for (const s of sessions) void s.ended();
      await Promise.all(sessions.map((s) => s.done));
      sessions = [];
      agent.close();
      bareAgent?.destroy();
      await store.close();
    };
    send({ type: 'ready' });
  } else if (m.type === 'hear') {
    for (const s of sessions) s.heard(frame, null);
    send({ type: 'heard' });
  } else if (m.type === 'bare') {
    send({ type: 'bare', times: await Promise.all(Array.from({ length: m.n }, () => barePost(m.url, m.body))) });
  } else if (m.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu', micros: user + system });
  } else if (m.type === 'stop') {
    await stop?.();
    send({ type: 'stopped' });
    process.exit(0);
  }
});
send({ type: 'up' });
