// How much of a cascaded agent's answer is svc's own. N calls at once, each a conversation held through the middle
// under test between a Twilio media-stream peer (test/support/fake-media-peer.ts: 20 ms mu-law frames sent in real
// time, the agent's audio played in real time, marks echoed once played, `clear` dropping what has not played) and
// three providers' fakes whose delays are fixed and known (bench/support/cascaded-call.ts): the recogniser's final
// 150 ms after the end of speech (Deepgram live), the chat model's first token 300 ms after its request (an
// OpenAI-compatible stream, the rest of the reply streaming after it), the voice's first audio 150 ms after its
// request (OpenAI /audio/speech). Each call: the greeting; the callee's turn (espeak-ng speech), answered; another,
// answered with a long reply; a third over that reply (a barge-in: cleared), answered; a fourth, answered.
//   - baseline, measured in the same run: a minimal pipeline relay doing the least any cascaded bridge must (the
//     recogniser's speech_final ends the turn, each sentence to the voice as written, the voice's audio to the line,
//     SpeechStarted answered with a clear; bench/support/pipeline-relay.ts);
//   - svc: the service itself (server/src/main.ts, role both, SQLite) with the Twilio carrier pointed at the fake
//     of Twilio's REST API and SVC_AGENT=cascaded at the three fakes: each call placed through the API, dialled by
//     the engine, answered by signed callbacks, its stream opened where the TwiML says with the token it carries.
// Measured on the peer's clock (the fakes and the peers are all in this process), where a call-time instant is the
// moment the peer sent the frame that ends there:
//   - the answer (the stream's `start`) to the greeting's first audio heard, less the model's and the voice's delays;
//   - each callee turn's end of speech (where svc's own detector, run on the same audio, says it stopped) to the
//     answer's first audio heard; less the fakes' three delays, and for svc also the 150 ms its endpointing waits
//     on purpose after the recogniser's end-of-speech mark (speech may resume), that is the middle's own share;
//   - whether each reply's first voice request reached the voice before the model's stream of that reply had ended
//     (sentence streaming), and by how much;
//   - the barge-in's speech start (svc's detector's) to the `clear` heard, and from the frame that decided it (for
//     svc, the frame at which its detector has heard startMs (120 ms) of speech; for the relay, the first frame of speech,
//     on which the fake recogniser sends SpeechStarted) to the clear;
//   - frames lost: the callee's frames sent that never reached the recogniser, and the voice's audio of every
//     reply not barged into that never reached the line (in 20 ms frames).
// The service runs with SVC_REALTIME_GREET_AFTER_MS=0 and SVC_AGENT_INTERRUPT_MIN_MS=0, two waits svc makes on
// purpose on a real line (a second for the callee's "Hello?" before it greets; 300 ms of the callee's speech before it
// cuts the agent off). Streams start spread over a second. Medians of the rounds' p50 and p99.
//   npx tsx bench/cascaded-latency.ts [rounds=3] [levels=25,100,200]
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { DEFAULT_ENDPOINTING } from '../server/src/voice-agent/cascaded/endpointing.js';
import { FakeMediaPeer, FRAME_BYTES, MU_LAW_SILENCE } from '../test/support/fake-media-peer.js';
import { BARGE_TURN, CHAT_FIRST_TOKEN_MS, CascadedFakes, calleeLine, FAKES_MS, replyBytes, VOICE_FIRST_AUDIO_MS } from './support/cascaded-call.js';
import { median, percentile } from './support/harness.js';
import { api, cpuSeconds } from './support/service.js';
import { startRelay, startTwilioService } from './support/twilio-service.js';

const rounds = Number(process.argv[2] ?? 3);
const levels = (process.argv[3] ?? '25,100,200').split(',').map(Number);
const RELAY = fileURLToPath(new URL('./support/pipeline-relay.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const GOAL_SHARE_P99_MS = 30;
const GOAL_CLEAR_P99_MS = 150;
/** svc's endpointing ends the turn this long after the recogniser's end-of-speech mark, on purpose. */
const GRACE_MS = DEFAULT_ENDPOINTING.finalGraceMs;
const FRAME_MS = 20;

const line = await calleeLine();
const SILENCE = Buffer.alloc(FRAME_BYTES, MU_LAW_SILENCE);
const TURNS = line.turns.length;
const frameAt = (ms: number) => ms / FRAME_MS;

type TargetName = 'minimal pipeline' | 'svc';
interface Measures {
  firstAudio: number[];
  /** End of speech → first audio, whole, and less what is not the middle's own. */
  answer: number[];
  share: number[];
  /** Each reply's first voice request before the end of the model's stream of it, ms (negative: after). */
  leads: number[];
  clear: number[];
  clearOwn: number[];
  lostIn: number;
  lostOut: number;
  /** Replies cut that the callee did not barge into on purpose (the agent so late that the callee spoke over it). */
  otherCuts: number;
  calls: number;
  incomplete: number;
  cpu: number;
  /** The benchmark's own CPU (peers and fakes), and its event loop's delay p99 (ms): past a few ms, the figures are the benchmark's. */
  fakesCpu: number;
  loopP99: number;
  /** svc's own event loop's delay p99 (ms); NaN for the relay. */
  middleLoopP99: number;
}

/** One call's conversation on the peer's side, timed. */
class Conversation {
  frame = 0;
  private readonly sentAt: number[] = [];
  private t0 = 0;
  /** Which reply the agent's audio now belongs to: 0 the greeting, k the answer to callee turn k. */
  private reply = 0;
  /** The reply whose first audio is awaited, and since when (the end of speech it answers). */
  private awaiting: { reply: number; since: number } | null = { reply: 0, since: 0 };
  private clearSince: { speech: number; decided: number } | null = null;
  /** Bytes of each reply's audio heard, and whether a clear came before all of it had. */
  readonly bytes: number[] = Array(TURNS + 1).fill(0);
  readonly cut: boolean[] = Array(TURNS + 1).fill(false);
  firstAudio: number | null = null;
  readonly answers: number[] = [];
  clear: number | null = null;
  clearOwn: number | null = null;
  done = false;
  private seen = 0;

  constructor(
    readonly peer: FakeMediaPeer,
    readonly call: number,
    /** The frame at which the middle can know the barge-in's speech started. */
    private readonly decidedFrame: number,
  ) {
    peer.on('change', () => this.onChange());
  }

  start(callSid: string, token: string): void {
    this.t0 = performance.now();
    this.awaiting = { reply: 0, since: this.t0 };
    this.peer.start({ callSid, token });
  }

  /** Sends the next 20 ms frame. */
  tick(): void {
    this.frame++;
    this.peer.speak(line.frames[this.frame - 1] ?? SILENCE);
    const at = performance.now();
    this.sentAt[this.frame] = at;
    line.turns.forEach((t, i) => {
      if (this.frame === frameAt(t.endMs)) {
        this.reply = i + 1;
        this.awaiting = { reply: i + 1, since: at };
      }
    });
    const barge = line.turns[BARGE_TURN - 1]!;
    if (this.frame === frameAt(barge.startMs)) this.clearSince = { speech: at, decided: Number.NaN };
    if (this.frame === this.decidedFrame && this.clearSince) this.clearSince.decided = at;
  }

  private onChange(): void {
    const now = performance.now();
    for (; this.seen < this.peer.received.length; this.seen++) {
      const msg = this.peer.received[this.seen]!;
      if (msg.event === 'media') {
        this.bytes[this.reply]! += Buffer.byteLength(String((msg.media as { payload: string }).payload), 'base64');
        if (this.awaiting?.reply === this.reply) {
          if (this.reply === 0) this.firstAudio = now - this.awaiting.since;
          else this.answers.push(now - this.awaiting.since);
          this.awaiting = null;
        }
        if (this.reply === TURNS && this.bytes[TURNS]! >= replyBytes(this.call, TURNS)) this.done = true;
      } else if (msg.event === 'clear') {
        if (this.bytes[this.reply]! < replyBytes(this.call, this.reply)) this.cut[this.reply] = true;
        if (this.clearSince && this.clear === null) {
          this.clear = now - this.clearSince.speech;
          this.clearOwn = now - this.clearSince.decided;
        }
      }
    }
    // What is counted is let go: a hundred peers keeping every message they were sent would make this process's
    // garbage collection, not the middle, the measure of each answer's tail.
    this.peer.received.length = 0;
    this.seen = 0;
  }

  /** The voice's audio that never reached the line of the replies that began and that no clear cut, in frames. */
  lostFrames(): number {
    let lost = 0;
    for (let k = 0; k <= TURNS; k++) if (this.bytes[k]! > 0 && !this.cut[k]) lost += Math.max(0, replyBytes(this.call, k) - this.bytes[k]!);
    return lost / FRAME_BYTES;
  }

  /**
   * Replies but the one the callee barges into that were cut or never heard: the agent so late that the callee spoke
   * over it, or before it began.
   */
  get otherCuts(): number {
    return this.cut.filter((c, k) => k !== BARGE_TURN - 1 && (c || this.bytes[k] === 0)).length;
  }
}

/** The middle under test: its process, and how to open N calls through it (stream URL, call sid, token, the call's number in its objective). */
interface Middle {
  pid: number;
  calls(n: number): Promise<Array<{ url: string; callSid: string; token: string; call: number }>>;
  /** svc: its event loop's delay p99 since the last reading (its Prometheus gauge, which each reading resets), ms. */
  loopDelayP99?(): Promise<number>;
  stop(): Promise<void>;
}

async function relay(fakes: CascadedFakes): Promise<Middle> {
  const r = await startRelay(RELAY, fakes.env());
  let opened = 0;
  return {
    pid: r.pid,
    calls: async (n) =>
      Array.from({ length: n }, () => {
        const call = opened++;
        return { url: `ws://127.0.0.1:${r.port}/twilio/media/${call}`, callSid: `CA${randomBytes(16).toString('hex')}`, token: 'relay', call };
      }),
    stop: r.stop,
  };
}

async function svc(fakes: CascadedFakes, total: number): Promise<Middle> {
  const service = await startTwilioService(total, {
    ...fakes.env(),
    SVC_AGENT: 'cascaded',
    SVC_REALTIME_GREET_AFTER_MS: '0',
    SVC_AGENT_INTERRUPT_MIN_MS: '0',
  });
  return {
    pid: service.pid,
    calls: async (n) => {
      const out = [];
      for (const call of await service.placeAndAnswer(n)) {
        const record = await api(service.url, service.apiKey, `/v1/agent/calls/${call.callId}`);
        out.push({ url: call.url, callSid: call.callSid, token: call.token, call: Number(/\(call (\d+)\)/.exec(String(record.json.objective))![1]) });
      }
      return out;
    },
    loopDelayP99: async () => {
      const metrics = await (await fetch(`${service.url}/metrics`)).text();
      return Number(/^svc_nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(metrics)![1]) * 1000;
    },
    stop: service.stop,
  };
}

/**
 * One call through the middle until its greeting is heard, not measured: a process's first requests to each fake
 * open its connections and compile its code, which no later call pays again.
 */
async function warmUp(middle: Middle): Promise<void> {
  const [l] = await middle.calls(1);
  const peer = await FakeMediaPeer.connect(l!.url);
  peer.start({ callSid: l!.callSid, token: l!.token });
  peer.live();
  await Promise.race([peer.until(() => peer.mediaBytes > 0), sleep(15_000)]);
  peer.close();
  await sleep(1000);
}

async function level(name: TargetName, n: number): Promise<Measures> {
  const fakes = await CascadedFakes.start(line);
  const middle = name === 'minimal pipeline' ? await relay(fakes) : await svc(fakes, n + 1);
  await sleep(500);
  await warmUp(middle);
  fakes.forget();
  const lines = await middle.calls(n);
  const barge = line.turns[BARGE_TURN - 1]!;
  const decidedFrame = name === 'svc' ? frameAt(barge.startDecidedMs) : frameAt(barge.startMs) + 1;
  const conversations: Conversation[] = [];
  await middle.loopDelayP99?.();
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
      while (next[i]! <= now) {
        conversations[i]!.tick();
        next[i]! += FRAME_MS;
      }
    }
  }, 1);
  // The streams start spread over a second, as answered calls do.
  await Promise.all(
    lines.map(async (l, i) => {
      await sleep((i * 1000) / n);
      const peer = await FakeMediaPeer.connect(l.url, { playback: 'real-time' });
      const c = new Conversation(peer, l.call, decidedFrame);
      c.start(l.callSid, l.token);
      next[conversations.length] = performance.now() + FRAME_MS;
      conversations.push(c);
    }),
  );
  const deadline = performance.now() + line.frames.length * FRAME_MS + 15_000;
  while (conversations.some((c) => !c.done) && performance.now() < deadline) await sleep(100);
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = (cpuSeconds(middle.pid) - cpu0) / seconds;
  const fakesUsage = process.cpuUsage(fakes0);
  const middleLoopP99 = (await middle.loopDelayP99?.()) ?? Number.NaN;
  loop.disable();
  clearInterval(ticker);
  await sleep(1000); // the last frames reach the recogniser
  const sentFrames = conversations.reduce((a, c) => a + c.frame, 0);
  const lostIn = sentFrames - fakes.recognisedBytes / FRAME_BYTES;
  if (lostIn < 0) console.error(`${name} N=${n}: the recogniser got ${-lostIn} frames more than were sent`);
  const leads = fakes.sentenceLeads();
  for (const c of conversations) c.peer.close();
  await sleep(500);
  await middle.stop();
  await fakes.close();
  const own = name === 'svc' ? FAKES_MS + GRACE_MS : FAKES_MS;
  const answer = conversations.flatMap((c) => c.answers);
  return {
    firstAudio: conversations.flatMap((c) => (c.firstAudio === null ? [] : [c.firstAudio - CHAT_FIRST_TOKEN_MS - VOICE_FIRST_AUDIO_MS])),
    answer,
    share: answer.map((a) => a - own),
    leads,
    clear: conversations.flatMap((c) => (c.clear === null ? [] : [c.clear])),
    clearOwn: conversations.flatMap((c) => (c.clearOwn === null ? [] : [c.clearOwn])),
    lostIn: Math.max(0, lostIn),
    lostOut: conversations.reduce((a, c) => a + c.lostFrames(), 0),
    otherCuts: conversations.reduce((a, c) => a + c.otherCuts, 0),
    calls: n,
    incomplete: conversations.filter((c) => !c.done).length,
    cpu,
    fakesCpu: (fakesUsage.user + fakesUsage.system) / 1e6 / seconds,
    loopP99: loop.percentile(99) / 1e6,
    middleLoopP99,
  };
}

console.error(
  `the callee's turns (svc's detector: start, decided, end, ms of call time): ${line.turns.map((t) => `${t.startMs}/${t.startDecidedMs}/${t.endMs}`).join(', ')}; the line lasts ${line.frames.length * FRAME_MS} ms`,
);
const runs = new Map<string, Measures[]>();
const key = (name: TargetName, n: number) => `${name}@${n}`;
const loads: number[] = [];
const TARGETS: TargetName[] = ['minimal pipeline', 'svc'];
for (let r = 0; r < rounds; r++) {
  for (const n of levels) {
    for (const name of TARGETS) {
      loads.push(loadavg()[0]);
      const m = await level(name, n);
      (runs.get(key(name, n)) ?? runs.set(key(name, n), []).get(key(name, n))!).push(m);
      const p = (xs: number[], q: number) => (xs.length ? percentile(xs, q).toFixed(1) : '—');
      console.error(
        `round ${r + 1} ${name} N=${n}: first audio p50 ${p(m.firstAudio, 50)} p99 ${p(m.firstAudio, 99)}; answer p50 ${p(m.answer, 50)} p99 ${p(m.answer, 99)}; own share p50 ${p(m.share, 50)} p99 ${p(m.share, 99)}; voice before the reply's end ${m.leads.filter((l) => l > 0).length}/${m.leads.length}, lead p50 ${p(m.leads, 50)}; clear p50 ${p(m.clear, 50)} p99 ${p(m.clear, 99)}, from the deciding frame p99 ${p(m.clearOwn, 99)} ms; lost frames ${m.lostIn} in, ${m.lostOut} out; other replies cut ${m.otherCuts}; cpu ${(m.cpu * 100).toFixed(0)}%, fakes ${(m.fakesCpu * 100).toFixed(0)}%, bench loop delay p99 ${m.loopP99.toFixed(1)} ms, svc's ${m.middleLoopP99.toFixed(1)} ms; incomplete ${m.incomplete}; load ${loadavg()[0].toFixed(2)}`,
      );
    }
  }
}

/** The median over the rounds of a measure's percentile; null when no round has any. */
const med = (ms: Measures[], pick: (m: Measures) => number[], q: number) => {
  const per = ms.map(pick).filter((xs) => xs.length > 0);
  return per.length === 0 ? null : median(per.map((xs) => percentile(xs, q)));
};
const f = (v: number | null) => (v === null ? '—' : v.toFixed(1));
const sum = (ms: Measures[], pick: (m: Measures) => number) => ms.reduce((a, m) => a + pick(m), 0);
const before = (ms: Measures[]) => `${sum(ms, (m) => m.leads.filter((l) => l > 0).length)} of ${sum(ms, (m) => m.leads.length)}`;
console.log(
  `\nCascaded agent latency: N calls at once; the recogniser's final ${FAKES_MS - CHAT_FIRST_TOKEN_MS - VOICE_FIRST_AUDIO_MS} ms after the end of speech, the model's first token ${CHAT_FIRST_TOKEN_MS} ms, the voice's first audio ${VOICE_FIRST_AUDIO_MS} ms (${FAKES_MS} ms in all); ${rounds} rounds, Node ${process.version}, load average ${median(loads).toFixed(2)} (median at each level's start; 2 cores, shared) — medians of the rounds' percentiles, ms\n`,
);
console.log(
  `| N | middle | answer → first audio, less model and voice, p50 / p99 | end of speech → first audio p50 / p99 | own share (less the fakes' ${FAKES_MS} ms; svc also its ${GRACE_MS} ms endpointing grace) p50 / p99 | first voice request before the reply's end (lead p50) | speech start → clear p50 / p99 | deciding frame → clear p50 / p99 | frames lost (callee → recogniser, voice → line) | other replies cut or missed | calls unfinished | CPU | fakes CPU | bench loop delay p99 | svc loop delay p99 | own share p99 ratio to pipeline |`,
);
console.log('|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const n of levels) {
  for (const name of TARGETS) {
    const ms = runs.get(key(name, n)) ?? [];
    const base = runs.get(key('minimal pipeline', n)) ?? [];
    const pair = (pick: (m: Measures) => number[]) => `${f(med(ms, pick, 50))} / ${f(med(ms, pick, 99))}`;
    const a = med(ms, (m) => m.share, 99);
    const b = med(base, (m) => m.share, 99);
    const ratio = name === 'svc' ? (a === null || b === null || b <= 0 ? '—' : (a / b).toFixed(2)) : 'baseline';
    console.log(
      `| ${n} | ${name} | ${pair((m) => m.firstAudio)} | ${pair((m) => m.answer)} | ${pair((m) => m.share)} | ${before(ms)} (${f(med(ms, (m) => m.leads, 50))}) | ${pair((m) => m.clear)} | ${pair((m) => m.clearOwn)} | ${sum(ms, (m) => m.lostIn)}, ${sum(ms, (m) => m.lostOut)} | ${sum(ms, (m) => m.otherCuts)} | ${sum(ms, (m) => m.incomplete)} | ${(median(ms.map((m) => m.cpu)) * 100).toFixed(0)}% | ${(median(ms.map((m) => m.fakesCpu)) * 100).toFixed(0)}% | ${median(ms.map((m) => m.loopP99)).toFixed(1)} | ${name === 'svc' ? median(ms.map((m) => m.middleLoopP99)).toFixed(1) : '—'} | ${ratio} |`,
    );
  }
}
const at100 = runs.get(key('svc', 100));
const at200 = runs.get(key('svc', 200));
const ok = (met: boolean) => (met ? 'met' : 'NOT met');
if (at100) {
  const share = med(at100, (m) => m.share, 99);
  const clear = med(at100, (m) => m.clear, 99);
  const leads = at100.flatMap((m) => m.leads);
  console.log(
    `\nGoals at 100 calls (svc): own share of end of speech → first audio p99 ${f(share)} ms (≤ ${GOAL_SHARE_P99_MS}: ${ok(share !== null && share <= GOAL_SHARE_P99_MS)}); first voice request before the model's reply ends in ${before(at100)} replies (all: ${ok(leads.length > 0 && leads.every((l) => l > 0))}); barge-in speech start → clear p99 ${f(clear)} ms (≤ ${GOAL_CLEAR_P99_MS}: ${ok(clear !== null && clear <= GOAL_CLEAR_P99_MS)})`,
  );
}
if (at200) {
  const lost = sum(at200, (m) => m.lostIn + m.lostOut);
  console.log(`Goal at 200 calls (svc): no frame lost: ${lost} lost over ${at200.length} rounds (${ok(lost === 0 && sum(at200, (m) => m.incomplete) === 0)})`);
}
