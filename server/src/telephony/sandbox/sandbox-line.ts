// The sandbox's live line: a simulated phone line that carries real audio, so a live agent (the cascaded agent)
// talks to the sandbox's callee through exactly the code that runs a real call. Frames of 20 ms go both ways at the
// call's pace (SVC_SANDBOX_TIME_SCALE, as the sandbox's other times; slower when the process is too busy to keep
// it, MAX_FRAMES_A_TICK): the callee's (line-callee.ts) to the agent's
// listener, and the agent's audio, queued as it is played, out to the callee, with each mark answered once the
// audio before it has gone out, and dropped on clear. The line keeps both legs and writes them as the call's
// recording when it ends (the agent on the left channel, the callee on the right; the one-channel recording is
// their mix).
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { decodeMuLaw } from '../../speech/audio.js';
import { dtmfTones } from '../../tones/dtmf-tones.js';
import { speechMs } from '../../conversation/conversation.js';
import { lexiconFor } from '../../conversation/lexicon.js';
import { sandboxScenario } from '../../numbers/sandbox-numbers.js';
import { type AgentHangUp, TRANSFER_RING_MS, type Consultation, type ConsultOutcome, type ConsultRequest, type LineSession, type LiveLine } from '../live-line.js';
import { FRAME_BYTES, FRAME_MS, type LineCallee, SILENCE_BYTE } from './line-callee.js';

/** The line's ending as the carrier reports it: the callee or the agent hung up, or the line dropped. */
export type SandboxLineEnd = { by: 'agent' | 'callee' | 'carrier'; atMs: number };

/** The longest a line runs, whatever happens: a call's maximum duration is the engine's to enforce, this only stops a leak. */
const MAX_LINE_MS = 4 * 60 * 60_000;
/** The person a warm transfer calls picks up after the sandbox's ring, and presses 1 this long after the prompt. */
const PERSON_RINGS_MS = 4000;
const PERSON_PRESSES_AFTER_MS = 1000;
/**
 * The most frames one tick sends (200 ms of call time). A process starved for longer slows its lines down rather
 * than sending seconds of the callee in one turn of its event loop: the agent's voice and model run on the same
 * process, and a burst would have the callee talk on while the agent could not answer, making the call's turns the
 * machine's load rather than the agent's.
 */
const MAX_FRAMES_A_TICK = 10;

/** A warm transfer's call to the person, decided at `decideAtMs` of the line's call time. */
interface SandboxConsult {
  decideAtMs: number;
  outcome: ConsultOutcome;
  decided: boolean;
  released: boolean;
  resolve(outcome: ConsultOutcome): void;
}

export interface SandboxLineOptions {
  /** Wall ms per call-time ms (the sandbox's time scale). */
  timeScale: number;
  /** Call time at which the line drops (the sandbox's dropping number), if it does. */
  dropAtMs?: number;
  logger: Logger;
}

export class SandboxLine implements LiveLine {
  /** The agent's audio still to go out, and the marks among it: a mark is due once `at` bytes have gone out. */
  private readonly agentQueue: Buffer[] = [];
  private queuedOffset = 0;
  private sentBytes = 0;
  private queuedBytes = 0;
  private marks: Array<{ name: string; at: number }> = [];
  private session: LineSession | null = null;
  private callMs = 0;
  /** The wall time at which call time 0 was, moved later when the line slips behind a starved process. */
  private startedAt = performance.now();
  private timer: NodeJS.Timeout | null = null;
  private over = false;
  private readonly calleeLeg: Buffer[] = [];
  private readonly agentLeg: Buffer[] = [];
  private consultation: SandboxConsult | null = null;
  readonly ended: Promise<SandboxLineEnd>;
  private resolveEnded!: (end: SandboxLineEnd) => void;

  constructor(
    private readonly callee: LineCallee,
    private readonly options: SandboxLineOptions,
  ) {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  /** Starts the line with the agent's session on it. */
  start(session: LineSession): void {
    this.session = session;
    this.tick();
  }

  play(payload: string): void {
    if (this.over) return;
    const audio = Buffer.from(payload, 'base64');
    this.agentQueue.push(audio);
    this.queuedBytes += audio.length;
  }

  mark(name: string): void {
    if (this.over) return;
    this.marks.push({ name, at: this.sentBytes + this.queuedBytes });
    if (this.queuedBytes === 0) this.releaseMarks();
  }

  clear(): void {
    this.agentQueue.length = 0;
    this.queuedOffset = 0;
    this.queuedBytes = 0;
    // Twilio answers the marks of cleared audio as soon as it has cleared it, in a message of its own: so does the
    // sandbox, on the next turn of the event loop.
    for (const m of this.marks) m.at = this.sentBytes;
    setImmediate(() => this.releaseMarks());
  }

  /**
   * Key presses go out as their tones, after the audio before them, as on Twilio's line: they are in the agent's
   * leg of the recording and their mark comes back once they have played. The sandbox's callee does not act on them.
   */
  sendDigits(digits: string): void {
    this.play(dtmfTones(digits).toString('base64'));
  }

  async hangUp(_reason: AgentHangUp): Promise<void> {
    this.end('agent');
  }

  /** The agent's part of the line ends: the callee is with the person now. */
  async transfer(_to: string): Promise<void> {
    this.end('agent');
  }

  consult(request: ConsultRequest): Consultation {
    const answers = sandboxScenario(request.to) !== 'never_answers';
    const readMs = speechMs(`${request.briefing} ${lexiconFor(request.language).agent.takeCallPrompt}`);
    let resolve!: (outcome: ConsultOutcome) => void;
    const outcome = new Promise<ConsultOutcome>((r) => (resolve = r));
    const c: SandboxConsult = {
      decideAtMs: this.callMs + (answers ? PERSON_RINGS_MS + readMs + PERSON_PRESSES_AFTER_MS : TRANSFER_RING_MS),
      outcome: answers ? 'accepted' : 'no_answer',
      decided: false,
      released: false,
      resolve,
    };
    this.consultation = c;
    const settle = (o: ConsultOutcome) => {
      if (c.decided) return;
      c.decided = true;
      c.resolve(o);
    };
    return {
      outcome,
      stillThere: async () => c.decided && c.outcome === 'accepted' && !c.released && !this.over,
      join: async () => this.end('agent'),
      release: async () => {
        c.released = true;
        settle('declined');
      },
    };
  }

  /** The engine hung up (the call's limit, a cancel): the line ends under the agent. */
  takeDown(): void {
    this.end('carrier');
  }

  /** Both legs as the call's recordings: two channels (agent left, callee right) and their mix, 8 kHz 16-bit. */
  legs(): { twoChannels: Int16Array; mix: Int16Array } {
    const agent = decodeMuLaw(Buffer.concat(this.agentLeg));
    const callee = decodeMuLaw(Buffer.concat(this.calleeLeg));
    const n = Math.max(agent.length, callee.length);
    const twoChannels = new Int16Array(n * 2);
    const mix = new Int16Array(n);
    for (let i = 0; i < n; i++) {
      const a = agent[i] ?? 0;
      const c = callee[i] ?? 0;
      twoChannels[2 * i] = a;
      twoChannels[2 * i + 1] = c;
      mix[i] = Math.max(-32768, Math.min(32767, a + c));
    }
    return { twoChannels, mix };
  }

  /** Sends every frame the call's pace has made due since the last tick (MAX_FRAMES_A_TICK at most), then waits for the next one. */
  private tick(): void {
    if (this.over) return;
    const frameWallMs = FRAME_MS * this.options.timeScale;
    const sent = this.callMs / FRAME_MS;
    let due = Math.floor((performance.now() - this.startedAt) / frameWallMs) + 1;
    if (due - sent > MAX_FRAMES_A_TICK) {
      this.startedAt += (due - sent - MAX_FRAMES_A_TICK) * frameWallMs;
      due = sent + MAX_FRAMES_A_TICK;
    }
    for (let n = sent; n < due && !this.over; n++) this.frame();
    if (this.over) return;
    const nextAt = this.startedAt + (this.callMs / FRAME_MS) * frameWallMs;
    this.timer = setTimeout(() => this.tick(), Math.max(0, nextAt - performance.now()));
  }

  private frame(): void {
    const at = this.callMs;
    if (this.options.dropAtMs !== undefined && at >= this.options.dropAtMs) return this.end('carrier');
    if (at >= MAX_LINE_MS) return this.end('carrier');
    const agent = this.agentFrame();
    this.agentLeg.push(agent ?? Buffer.alloc(FRAME_BYTES, SILENCE_BYTE));
    const heard = this.callee.frame(at, agent);
    this.calleeLeg.push(heard);
    this.callMs += FRAME_MS;
    this.session?.heard(heard.toString('base64'), at);
    this.releaseMarks();
    const c = this.consultation;
    if (c && !c.decided && this.callMs >= c.decideAtMs) {
      c.decided = true;
      c.resolve(c.outcome);
    }
    if (!this.holding() && this.callee.hangsUp(this.callMs)) this.end('callee');
  }

  /** The callee holds while the person is called, and while the person who took the call waits to be joined. */
  private holding(): boolean {
    const c = this.consultation;
    return c !== null && !c.released && (!c.decided || c.outcome === 'accepted');
  }

  /** The next 20 ms of the agent's audio, padded with silence; null when none is queued. */
  private agentFrame(): Buffer | null {
    if (this.queuedBytes === 0) return null;
    const out = Buffer.alloc(FRAME_BYTES, SILENCE_BYTE);
    let filled = 0;
    while (filled < FRAME_BYTES && this.agentQueue.length > 0) {
      const head = this.agentQueue[0]!;
      const n = Math.min(FRAME_BYTES - filled, head.length - this.queuedOffset);
      head.copy(out, filled, this.queuedOffset, this.queuedOffset + n);
      filled += n;
      this.queuedOffset += n;
      if (this.queuedOffset >= head.length) {
        this.agentQueue.shift();
        this.queuedOffset = 0;
      }
    }
    this.queuedBytes -= filled;
    this.sentBytes += filled;
    return out;
  }

  private releaseMarks(): void {
    while (this.marks.length > 0 && this.marks[0]!.at <= this.sentBytes) {
      const m = this.marks.shift()!;
      this.session?.marked(m.name);
    }
  }

  private end(by: SandboxLineEnd['by']): void {
    if (this.over) return;
    this.over = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.resolveEnded({ by, atMs: this.callMs });
    // A call to the person still ringing goes nowhere now.
    if (this.consultation && !this.consultation.decided) {
      this.consultation.decided = true;
      this.consultation.resolve('failed');
    }
    if (by !== 'agent') void this.session?.ended();
  }
}
