// How much of a live conversation's latency is svc's own. N calls at once, each a conversation held
// through the middle under test between a Twilio media-stream peer (test/support/fake-media-peer.ts: 20 ms mu-law
// frames sent in real time, the agent's audio played in real time, marks echoed once played, `clear` dropping what
// has not played) and the fake realtime model (test/support/fake-realtime.ts) whose time to first audio is fixed
// (firstAudioDelayMs, 300 ms unless told). Each call: the greeting; the callee's turn, answered; another, answered;
// a third over the agent's long reply (a barge-in: cleared and truncated), answered; a fourth, answered.
//   - baseline, measured in the same run: a minimal `ws` relay doing the least any bridge must (session set up at
//     the start, audio translated both ways, speech_started answered with a clear; bench/support/agent-relay.ts);
//   - svc: the service itself (server/src/main.ts, role both, SQLite) with the Twilio carrier pointed at the fake
//     of Twilio's REST API here and the realtime agent at the fake model: each call placed through the API, dialled
//     by the engine, answered by signed callbacks, its stream opened where the TwiML says with the token it carries.
// Measured on the peer's clock (the fakes and peers are all in this process): the answer (the stream's `start`)
// to the first audio heard, less the model's delay; each callee turn's last frame sent to the answer's first audio,
// less the model's delay; the barge-in's last frame sent (the model's speech_started follows it at once) to the
// `clear`. That is the middle's own share, with both sockets' transit. And for svc, how far the truncation it sent
// the model is from what the peer had played when the clear came (goal: within one 20 ms frame).
// Streams start spread over a second. Medians of the rounds' p50 and p99.
//   npx tsx bench/conversation-latency.ts [rounds=3] [levels=25,100,200] [modelMs=300]
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { FakeMediaPeer, FRAME_BYTES, muLawTone } from '../test/support/fake-media-peer.js';
import { FakeRealtime, type RealtimeStep } from '../test/support/fake-realtime.js';
import { median, percentile } from './support/harness.js';
import { api, cpuSeconds } from './support/service.js';
import { startRelay, startTwilioService } from './support/twilio-service.js';

const rounds = Number(process.argv[2] ?? 3);
const levels = (process.argv[3] ?? '25,100,200').split(',').map(Number);
const MODEL_MS = Number(process.argv[4] ?? 300);
const RELAY = fileURLToPath(new URL('./support/agent-relay.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const GOAL_SHARE_P99_MS = 30;
const GOAL_CLEAR_P99_MS = 10;
const GOAL_TRUNCATE_MS = 20;

/** A callee turn every second of the callee's audio (50 frames); the third comes while the agent's long reply plays. */
const TURN_FRAMES = 50;
const GREETING_BYTES = 1600;
const ANSWER_BYTES = 1600;
const LONG_BYTES = 24_000; // 3 s
const SCRIPT: RealtimeStep[] = [
  { agent: 'Hello, I am an AI assistant calling for a customer.', audioBytes: GREETING_BYTES },
  { callee: 'Hello?', afterBytes: TURN_FRAMES * FRAME_BYTES },
  { agent: 'Could you tell me whether the shop is open on Sunday?', audioBytes: ANSWER_BYTES },
  { callee: 'On Sunday? Let me think.', afterBytes: TURN_FRAMES * FRAME_BYTES },
  { agent: 'Of course, take your time; the customer would like to drop off a parcel, and wanted to know.', audioBytes: LONG_BYTES },
  { callee: 'Yes, we are open.', afterBytes: TURN_FRAMES * FRAME_BYTES },
  { agent: 'Until what time?', audioBytes: 800 },
  { callee: 'Until four.', afterBytes: TURN_FRAMES * FRAME_BYTES },
  { agent: 'Thank you, goodbye.', audioBytes: 800 },
  { endCall: true },
];
const BARGE_TURN = 3; // the third callee turn

type TargetName = 'minimal relay' | 'svc';
interface Measures {
  firstAudio: number[];
  answer: number[];
  clear: number[];
  /** svc only: |truncation sent to the model − what the peer had played of the item when the clear came|, ms. */
  truncate: number[];
  calls: number;
  incomplete: number;
  cpu: number;
  /** The benchmark's own CPU (peers and model), and its event loop's delay p99 (ms): past a few ms, the figures are the benchmark's. */
  fakesCpu: number;
  loopP99: number;
}

/** One call's conversation on the peer's side, timed. */
class Conversation {
  private frame = 0;
  private readonly sentAt: number[] = [];
  private t0 = 0;
  /** Which answer the next agent audio is: 0 the greeting, k after callee turn k; null when none is awaited. */
  private awaiting: number | null = 0;
  private awaitingClear = false;
  readonly firstAudio: number[] = [];
  readonly answers: number[] = [];
  readonly clears: number[] = [];
  /** What the peer had played of the long reply when the clear came, ms. */
  playedAtClear: number | null = null;
  done = false;
  private seen = 0;
  private readonly silence = muLawTone(FRAME_BYTES, 0);

  constructor(readonly peer: FakeMediaPeer) {
    peer.on('change', () => this.onChange());
  }

  start(callSid: string, token: string): void {
    this.t0 = performance.now();
    this.peer.start({ callSid, token });
  }

  /** Sends the next 20 ms frame. */
  tick(): void {
    if (this.done) return;
    this.frame++;
    this.peer.speak(this.silence);
    this.sentAt[this.frame] = performance.now();
    if (this.frame % TURN_FRAMES === 0) {
      const turn = this.frame / TURN_FRAMES;
      if (turn <= 4) this.awaiting = turn;
      if (turn === BARGE_TURN) this.awaitingClear = true;
    }
  }

  private onChange(): void {
    const now = performance.now();
    for (; this.seen < this.peer.received.length; this.seen++) {
      const msg = this.peer.received[this.seen];
      if (msg.event === 'media' && this.awaiting !== null) {
        const k = this.awaiting;
        this.awaiting = null;
        if (k === 0) this.firstAudio.push(now - this.t0 - MODEL_MS);
        else this.answers.push(now - this.sentAt[k * TURN_FRAMES] - MODEL_MS);
        if (k === 4) this.done = true;
      } else if (msg.event === 'clear' && this.awaitingClear) {
        this.awaitingClear = false;
        this.clears.push(now - this.sentAt[BARGE_TURN * TURN_FRAMES]);
        // All that came before the long reply was played whole.
        this.playedAtClear = (this.peer.mediaBytes - this.peer.clearedBytes - GREETING_BYTES - ANSWER_BYTES) / 8;
      }
    }
  }
}

/** The middle under test: its process, and how to open N more calls through it (stream URL, call sid, token). */
interface Middle {
  pid: number;
  calls(n: number): Promise<Array<{ url: string; callSid: string; token: string; objective: string | null }>>;
  stop(): Promise<void>;
}

async function relay(model: FakeRealtime): Promise<Middle> {
  const r = await startRelay(RELAY, { SVC_REALTIME_URL: model.url });
  let opened = 0;
  return {
    pid: r.pid,
    calls: async (n) =>
      Array.from({ length: n }, () => ({ url: `ws://127.0.0.1:${r.port}/twilio/media/${opened++}`, callSid: `CA${randomBytes(16).toString('hex')}`, token: 'relay', objective: null })),
    stop: r.stop,
  };
}

async function svc(model: FakeRealtime): Promise<Middle> {
  const service = await startTwilioService(
    levels.reduce((a, b) => a + b, 0),
    {
      SVC_REALTIME_URL: model.url,
      // svc's own share, without the two waits it makes on purpose: a second for the callee's "Hello?" before it
      // greets a silent line, and 400 ms of the callee's speech before it cuts the agent off (a cough is shorter).
      SVC_REALTIME_GREET_AFTER_MS: '0',
      SVC_REALTIME_INTERRUPT_MIN_MS: '0',
    },
  );
  return {
    pid: service.pid,
    calls: async (n) => {
      const out = [];
      for (const call of await service.placeAndAnswer(n)) {
        const record = await api(service.url, service.apiKey, `/v1/agent/calls/${call.callId}`);
        out.push({ url: call.url, callSid: call.callSid, token: call.token, objective: String(record.json.objective) });
      }
      return out;
    },
    stop: service.stop,
  };
}

/** The truncation the middle sent the model on the connection whose instructions carry the objective, in ms. */
function truncationFor(model: FakeRealtime, objective: string): number | null {
  for (const c of model.connections) {
    const update = c.received.find((e) => e.type === 'session.update') as { session?: { instructions?: string } } | undefined;
    if (!update?.session?.instructions?.includes(objective)) continue;
    const t = c.received.find((e) => e.type === 'conversation.item.truncate') as { audio_end_ms?: number } | undefined;
    return typeof t?.audio_end_ms === 'number' ? t.audio_end_ms : null;
  }
  return null;
}

async function level(name: TargetName, n: number): Promise<Measures> {
  const model = await FakeRealtime.start({ script: SCRIPT, firstAudioDelayMs: MODEL_MS });
  const middle = name === 'minimal relay' ? await relay(model) : await svc(model);
  await sleep(500);
  const lines = await middle.calls(n);
  const conversations: Conversation[] = [];
  const cpu0 = cpuSeconds(middle.pid);
  const fakes0 = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const startedAt = performance.now();
  // One ticker sends every call's frames: each call's frame every 20 ms from its start.
  const next: number[] = [];
  const ticker = setInterval(() => {
    const now = performance.now();
    for (let i = 0; i < conversations.length; i++) {
      while (next[i] <= now) {
        conversations[i].tick();
        next[i] += 20;
      }
    }
  }, 1);
  // The streams start spread over a second, as answered calls do.
  await Promise.all(
    lines.map(async (line, i) => {
      await sleep((i * 1000) / n);
      const peer = await FakeMediaPeer.connect(line.url, { playback: 'real-time' });
      const c = new Conversation(peer);
      c.start(line.callSid, line.token);
      next[conversations.length] = performance.now() + 20;
      conversations.push(c);
    }),
  );
  const deadline = performance.now() + 30_000;
  while (conversations.some((c) => !c.done) && performance.now() < deadline) await sleep(50);
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = (cpuSeconds(middle.pid) - cpu0) / seconds;
  const fakesUsage = process.cpuUsage(fakes0);
  loop.disable();
  clearInterval(ticker);
  await sleep(300); // the truncations reach the model
  const truncate: number[] = [];
  if (name === 'svc') {
    conversations.forEach((c, i) => {
      const sent = lines[i].objective === null ? null : truncationFor(model, lines[i].objective!);
      if (sent !== null && c.playedAtClear !== null) truncate.push(Math.abs(sent - c.playedAtClear));
    });
  }
  for (const c of conversations) c.peer.close();
  await sleep(500);
  await middle.stop();
  await model.close();
  return {
    firstAudio: conversations.flatMap((c) => c.firstAudio),
    answer: conversations.flatMap((c) => c.answers),
    clear: conversations.flatMap((c) => c.clears),
    truncate,
    calls: n,
    incomplete: conversations.filter((c) => !c.done).length,
    cpu,
    fakesCpu: (fakesUsage.user + fakesUsage.system) / 1e6 / seconds,
    loopP99: loop.percentile(99) / 1e6,
  };
}

const runs = new Map<string, Measures[]>();
const key = (name: TargetName, n: number) => `${name}@${n}`;
const loads: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const n of levels) {
    for (const name of ['minimal relay', 'svc'] as TargetName[]) {
      loads.push(loadavg()[0]);
      const m = await level(name, n);
      (runs.get(key(name, n)) ?? runs.set(key(name, n), []).get(key(name, n))!).push(m);
      const p = (xs: number[], q: number) => (xs.length ? percentile(xs, q).toFixed(1) : '—');
      console.error(
        `round ${r + 1} ${name} N=${n}: first audio p50 ${p(m.firstAudio, 50)} p99 ${p(m.firstAudio, 99)}; answer p50 ${p(m.answer, 50)} p99 ${p(m.answer, 99)}; clear p50 ${p(m.clear, 50)} p99 ${p(m.clear, 99)}; truncation p99 ${p(m.truncate, 99)} ms; cpu ${(m.cpu * 100).toFixed(0)}%, fakes ${(m.fakesCpu * 100).toFixed(0)}%, bench loop delay p99 ${m.loopP99.toFixed(1)} ms; incomplete ${m.incomplete}; load ${loadavg()[0].toFixed(2)}`,
      );
    }
  }
}

/** The median over the rounds of a measure's percentile; '—' when a round has none. */
const med = (ms: Measures[], pick: (m: Measures) => number[], q: number) => {
  const per = ms.map(pick).filter((xs) => xs.length > 0);
  return per.length === 0 ? null : median(per.map((xs) => percentile(xs, q)));
};
const f = (v: number | null) => (v === null ? '—' : v.toFixed(1));
console.log(
  `\nConversation latency: N calls at once, the model's time to first audio fixed at ${MODEL_MS} ms (taken off), ${rounds} rounds, Node ${process.version}, load average ${median(loads).toFixed(2)} (median at each level's start; 2 cores, shared) — medians of the rounds' percentiles, ms\n`,
);
console.log(
  '| N | middle | answer → first audio p50 / p99 | end of speech → first audio p50 / p99 | speech_started → clear p50 / p99 | truncation off what played p50 / p99 | CPU | fakes CPU | bench loop delay p99 | calls unfinished | p99 ratio to relay (first audio, answer, clear) |',
);
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const n of levels) {
  for (const name of ['minimal relay', 'svc'] as TargetName[]) {
    const ms = runs.get(key(name, n)) ?? [];
    const base = runs.get(key('minimal relay', n)) ?? [];
    const ratio = (pick: (m: Measures) => number[]) => {
      const a = med(ms, pick, 99);
      const b = med(base, pick, 99);
      return a === null || b === null || b <= 0 ? '—' : (a / b).toFixed(2);
    };
    const pair = (pick: (m: Measures) => number[]) => `${f(med(ms, pick, 50))} / ${f(med(ms, pick, 99))}`;
    console.log(
      `| ${n} | ${name} | ${pair((m) => m.firstAudio)} | ${pair((m) => m.answer)} | ${pair((m) => m.clear)} | ${name === 'svc' ? pair((m) => m.truncate) : '—'} | ${(median(ms.map((m) => m.cpu)) * 100).toFixed(0)}% | ${(median(ms.map((m) => m.fakesCpu)) * 100).toFixed(0)}% | ${median(ms.map((m) => m.loopP99)).toFixed(1)} | ${ms.reduce((a, m) => a + m.incomplete, 0)} | ${name === 'svc' ? `${ratio((m) => m.firstAudio)}, ${ratio((m) => m.answer)}, ${ratio((m) => m.clear)}` : 'baseline'} |`,
    );
  }
}
const at100 = runs.get(key('svc', 100));
if (at100) {
  const ok = (v: number | null, goal: number) => (v !== null && v <= goal ? 'met' : 'NOT met');
  console.log(
    `\nGoals at 100 calls (svc, p99): answer → first audio ${f(med(at100, (m) => m.firstAudio, 99))} ms (≤ ${GOAL_SHARE_P99_MS}: ${ok(
      med(at100, (m) => m.firstAudio, 99),
      GOAL_SHARE_P99_MS,
    )}), end of speech → first audio ${f(med(at100, (m) => m.answer, 99))} ms (≤ ${GOAL_SHARE_P99_MS}: ${ok(
      med(at100, (m) => m.answer, 99),
      GOAL_SHARE_P99_MS,
    )}), clear ${f(med(at100, (m) => m.clear, 99))} ms (≤ ${GOAL_CLEAR_P99_MS}: ${ok(
      med(at100, (m) => m.clear, 99),
      GOAL_CLEAR_P99_MS,
    )}), truncation ${f(med(at100, (m) => m.truncate, 99))} ms off (≤ ${GOAL_TRUNCATE_MS}: ${ok(
      med(at100, (m) => m.truncate, 99),
      GOAL_TRUNCATE_MS,
    )})`,
  );
}
