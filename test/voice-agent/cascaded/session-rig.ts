// The rig the cascaded session's tests run calls on: a live line the test owns (TestLine), carrying the callee's
// speech (espeak-ng, laid at call times) to the session in 20 ms frames at a paced rate, and playing the agent's audio
// out at the same rate, answering marks once the audio before them has played and dropping what is cleared, as
// Twilio does; and the session's real providers pointed at the vendors' fakes: DeepgramRecognizer at the fake
// Deepgram (its script follows the callee's speech), OpenAiCompatibleChatModel at the fake chat stream, and
// OpenAiVoice or ElevenLabsVoice at theirs. Nothing of the session is stubbed but what lies outside it (the store's
// records, unless a test joins through the CascadedAgent, and the wait before a retry, which is recorded rather than
// slept), so what a test asserts is what a call would do.
//
// Call time runs on the line's frames, the providers on the wall clock, as on a real call; the line's pace
// (`timeScale`, wall ms per call ms) is fast enough to keep the tests short and slow enough that a provider's
// answer lands within a few frames.
import pino, { type Logger } from 'pino';
import type { LineBrief } from '../../../server/src/conversation/conversation.js';
import { OpenAiCompatibleChatModel, type OpenAiCompatibleOptions } from '../../../server/src/chat-model/openai-compatible.js';
import { encodeMuLaw } from '../../../server/src/speech/audio.js';
import { DeepgramRecognizer, type DeepgramConfig } from '../../../server/src/speech/deepgram/deepgram-recognizer.js';
import { ElevenLabsVoice } from '../../../server/src/speech/elevenlabs/elevenlabs-voice.js';
import { OpenAiVoice, type OpenAiVoiceOptions } from '../../../server/src/speech/openai/openai-voice.js';
import type { RecognitionStream, SpeechRecognizer } from '../../../server/src/speech/recognizer.js';
import type { SpeechSynthesizer } from '../../../server/src/speech/voice.js';
import type { AgentHangUp, AnswerVerdict, Consultation, LineEnd, LineSession, LiveLine } from '../../../server/src/telephony/live-line.js';
import type { Apology } from '../../../server/src/voice-agent/apology.js';
import { type CascadedProviders, CascadedSession, type CascadedTiming } from '../../../server/src/voice-agent/cascaded/cascaded-session.js';
import { type EarEvent, type Ears, type EarSettings, LineEars } from '../../../server/src/voice-agent/cascaded/ears.js';
import { loadFvad, VoiceActivity } from '../../../server/src/voice-agent/cascaded/voice-activity.js';
import { CALL_TOOLS } from '../../../server/src/voice-agent/tools.js';
import { TurnLedger } from '../../../server/src/voice-agent/turn-ledger.js';
import type { TimedTurn } from '../../../server/src/conversation/conversation.js';
import { type DeepgramStep, FAKE_DEEPGRAM_KEY, FakeDeepgram, type FakeDeepgramOptions } from '../../support/fake-deepgram.js';
import { type FakeChatStream, startFakeChatStream } from '../../support/fake-chat-stream.js';
import { type FakeElevenLabs, startFakeElevenLabs } from '../../support/fake-elevenlabs.js';
import { type FakeOpenAiSpeech, startFakeOpenAiSpeech } from '../../support/fake-openai-speech.js';
import { until } from '../../support/until.js';
import type { SpeechVoice } from '../../../server/src/recording/espeak-synthesizer.js';
import { Line, speak } from './line-audio.js';

/**
 * The voices' stall bound in the rig: tests hold a voice's body open on purpose while they look at the line, and a
 * busy machine may take seconds to get there; the stall itself is the adapters' own tests' business.
 */
const LOADED_MACHINE_STALL_MS = 20_000;

export const CHAT_KEY = 'sk-chat-fake-4b1e9d7c2a6f3085e7d1';
export const TTS_KEY = 'sk-tts-fake-9c2e7a1f5d3b6048a2c4';
export const ELEVENLABS_KEY = 'xi-fake-5e8b2d9a7c1f4630b9e2';
export const KEYS = [FAKE_DEEPGRAM_KEY, CHAT_KEY, TTS_KEY, ELEVENLABS_KEY];

const FRAME_MS = 20;
const FRAME_BYTES = 160;
const SILENCE = 0xff;
/** The fake OpenAI voice's speech per character of input. */
export const MS_PER_CHAR = 40;

/** The apology the direct tests' sessions play: a tone of its own, so the line's audio shows exactly where it is. */
export const APOLOGY: Apology = { text: 'Sorry, we have a technical problem. Goodbye.', audio: tone(600, 330) };

function tone(ms: number, hz: number): Buffer {
  const samples = new Int16Array(ms * 8);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / 8000));
  return encodeMuLaw(samples);
}

export interface LineEvent {
  /** Call time: the line's frames sent so far. */
  atMs: number;
  what: 'play' | 'mark' | 'marked' | 'clear' | 'hangUp' | 'ended';
  /** The mark's name, or the hang-up's reason. */
  name?: string;
  /** play: the payload's bytes; clear: the agent's bytes played out before it; hangUp: its bytes still to play. */
  bytes?: number;
}

/**
 * A live line the test owns: the callee's audio (mu-law, silence after it) goes to the session a 20 ms frame at a
 * time, a frame every 20 × `timeScale` wall ms; the agent's audio goes out at the same rate, each mark answered once
 * the audio before it has played, a clear dropping what has not, its marks answered in a message of their own after
 * it (Twilio's way).
 */
export class TestLine implements LiveLine {
  readonly events: LineEvent[] = [];
  /** Every payload the agent played, decoded, in order. */
  readonly played: Buffer[] = [];
  /** The agent's bytes played out to the callee (what was cleared never is). */
  heardBytes = 0;
  callMs = 0;
  hungUp: AgentHangUp | null = null;
  over = false;
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private sentBytes = 0;
  private marks: Array<{ name: string; at: number }> = [];
  private session: LineSession | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly callee: Buffer,
    private readonly timeScale: number,
    readonly verdict?: Promise<AnswerVerdict>,
    /** The line ends under the session at this call time, whatever happens (a test that went wrong ends). */
    private readonly limitMs = 60_000,
  ) {}

  start(session: LineSession): void {
    this.session = session;
    this.tick();
  }

  play(payload: string): void {
    const audio = Buffer.from(payload, 'base64');
    this.note('play', undefined, audio.length);
    if (this.over) return;
    this.played.push(audio);
    this.queue.push(audio);
    this.queuedBytes += audio.length;
  }

  mark(name: string): void {
    this.note('mark', name);
    if (this.over) return;
    this.marks.push({ name, at: this.sentBytes + this.queuedBytes });
    if (this.queuedBytes === 0) this.releaseMarks();
  }

  clear(): void {
    this.note('clear', undefined, this.heardBytes);
    this.queue.length = 0;
    this.queuedBytes = 0;
    for (const m of this.marks) m.at = this.sentBytes;
    setImmediate(() => this.releaseMarks());
  }

  sendDigits(_digits: string): void {}

  async hangUp(reason: AgentHangUp): Promise<void> {
    this.note('hangUp', reason, this.queuedBytes);
    this.hungUp ??= reason;
    this.stop();
  }

  async transfer(_to: string): Promise<void> {
    this.stop();
  }

  consult(): Consultation {
    return { outcome: Promise.resolve('failed'), stillThere: async () => false, join: async () => undefined, release: async () => undefined };
  }

  /** The callee hangs up: the frames stop and the session is told. */
  calleeHangsUp(): Promise<LineEnd> {
    this.note('ended');
    this.stop();
    return this.session!.ended();
  }

  /** Every payload the agent played, as one buffer. */
  get agentAudio(): Buffer {
    return Buffer.concat(this.played);
  }

  /** The events but plays, as `what name` strings, in order. */
  get signals(): string[] {
    return this.events.filter((e) => e.what !== 'play').map((e) => (e.name === undefined ? e.what : `${e.what} ${e.name}`));
  }

  /** Whether agent audio is still to play out. */
  get playing(): boolean {
    return this.queuedBytes > 0;
  }

  until(what: string, test: () => boolean, ms = 15_000): Promise<void> {
    return until(what, test, ms, 5);
  }

  private note(what: LineEvent['what'], name?: string, bytes?: number): void {
    this.events.push({ atMs: this.callMs, what, ...(name === undefined ? {} : { name }), ...(bytes === undefined ? {} : { bytes }) });
  }

  private stop(): void {
    this.over = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Sends a frame, then waits a frame's wall time before the next. A line that falls behind does not catch up in a
   * burst: on a busy machine call time slows with everything else, so a provider's answer is never late in call
   * time only because the test process was starved.
   */
  private tick(): void {
    if (this.over) return;
    this.frame();
    if (this.over) return;
    this.timer = setTimeout(() => this.tick(), FRAME_MS * this.timeScale);
  }

  private frame(): void {
    const at = this.callMs;
    if (at >= this.limitMs) {
      void this.calleeHangsUp();
      return;
    }
    let out = 0;
    while (out < FRAME_BYTES && this.queue.length > 0) {
      const head = this.queue[0]!;
      const n = Math.min(FRAME_BYTES - out, head.length);
      out += n;
      if (n === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(n);
    }
    this.queuedBytes -= out;
    this.sentBytes += out;
    this.heardBytes += out;
    const frame = Buffer.alloc(FRAME_BYTES, SILENCE);
    const from = (at / FRAME_MS) * FRAME_BYTES;
    if (from < this.callee.length) this.callee.copy(frame, 0, from, Math.min(this.callee.length, from + FRAME_BYTES));
    this.callMs += FRAME_MS;
    this.session?.heard(frame.toString('base64'), at);
    this.releaseMarks();
  }

  private releaseMarks(): void {
    while (!this.over && this.marks.length > 0 && this.marks[0]!.at <= this.sentBytes) {
      const m = this.marks.shift()!;
      this.note('marked', m.name);
      this.session?.marked(m.name);
    }
  }
}

/** Where the callee's speech is on the line (call ms), and its words. */
export interface Said {
  text: string;
  startMs: number;
  endMs: number;
}

/** What the callee says: its words, and the call time its speech starts (or how long after the part before it ends). */
export interface CalleePart {
  text: string;
  atMs?: number;
  afterMs?: number;
  /** How the fake Deepgram ends its words (speech_final unless told). */
  end?: 'speech_final' | 'is_final' | 'held';
  /** Interim results before the final (2 unless told). */
  interims?: number;
  /** Silence after the speech that the words' final waits for: Deepgram's endpointing, 300 ms unless told. */
  tailMs?: number;
  /** espeak-ng's voice (line-audio.ts's first unless told). */
  voice?: SpeechVoice;
}

/** The callee's side of the line: each part spoken by espeak-ng so its speech starts at its time. */
export async function calleeAudio(parts: readonly CalleePart[], lineMs: number): Promise<{ audio: Buffer; said: Said[] }> {
  const line = new Line(lineMs);
  const said: Said[] = [];
  for (const p of parts) {
    const u = await speak(p.text, p.voice);
    const startMs = p.atMs ?? Math.round(said.at(-1)!.endMs + p.afterMs!);
    const at = line.say(startMs - Math.round(u.startMs), u);
    said.push({ text: p.text, startMs: at.startMs, endMs: at.endMs });
  }
  return { audio: line.muLaw(), said };
}

/**
 * The fake Deepgram's script for the callee's speech: silence up to each part's speech, then its words over its
 * speech and the endpointing silence after it, so the final comes where Deepgram's would. A socket opened at call
 * time `originMs` counts its audio from there.
 */
export function deepgramScript(parts: readonly CalleePart[], said: readonly Said[], originMs = 0): DeepgramStep[] {
  const steps: DeepgramStep[] = [];
  let cursor = originMs;
  said.forEach((s, i) => {
    const part = parts[i]!;
    const start = Math.floor(s.startMs / FRAME_MS) * FRAME_MS;
    const nextStart = said[i + 1]?.startMs ?? Number.POSITIVE_INFINITY;
    const end = Math.min(Math.ceil((s.endMs + (part.tailMs ?? 300)) / FRAME_MS) * FRAME_MS, Math.floor(nextStart / FRAME_MS) * FRAME_MS);
    if (start > cursor) steps.push({ afterBytes: (start - cursor) * 8, silence: true });
    steps.push({ afterBytes: (end - start) * 8, text: part.text, ...(part.end ? { end: part.end } : {}), ...(part.interims !== undefined ? { interims: part.interims } : {}) });
    cursor = end;
  });
  return steps;
}

/** Where the voice activity detector the session's ears use hears speech in `audio` (followed by silence). */
export async function speechSpans(audio: Buffer): Promise<Array<{ startMs: number; endMs: number }>> {
  const vad = new VoiceActivity(await loadFvad());
  const spans: Array<{ startMs: number; endMs: number }> = [];
  const padded = Buffer.concat([audio, Buffer.alloc(1000 * 8, SILENCE)]);
  for (let at = 0; at + FRAME_BYTES <= padded.length; at += FRAME_BYTES) {
    for (const e of vad.push(padded.subarray(at, at + FRAME_BYTES))) {
      if (e.type === 'started') spans.push({ startMs: e.atMs, endMs: -1 });
      else spans[spans.length - 1]!.endMs = e.atMs;
    }
  }
  vad.close();
  return spans;
}

/**
 * The call time at which speech in `audio` starting at or after `fromMs` has lasted `minSpeechMs` by the voice activity
 * detector's account (the end of its last speech frame): the frame a barge-in over the agent is decided on.
 */
export async function speechLastedAt(audio: Buffer, fromMs: number, minSpeechMs: number): Promise<number | null> {
  const vad = new VoiceActivity(await loadFvad());
  let start: number | null = null;
  try {
    for (let at = 0; at + FRAME_BYTES <= audio.length; at += FRAME_BYTES) {
      for (const e of vad.push(audio.subarray(at, at + FRAME_BYTES))) if (e.type === 'started' && e.atMs >= fromMs) start ??= e.atMs;
      if (start !== null && vad.speechEndMs !== null && vad.speechEndMs - start >= minSpeechMs) return vad.nowMs;
    }
    return null;
  } finally {
    vad.close();
  }
}

/** svc's ears, and every event they gave with the call time they gave it at. */
export class RecordingEars implements Ears {
  readonly heard: Array<EarEvent & { nowMs: number }> = [];

  constructor(private readonly inner: Ears) {}

  get nowMs(): number {
    return this.inner.nowMs;
  }

  get speaking(): boolean {
    return this.inner.speaking;
  }

  push(frame: Buffer): EarEvent[] {
    return this.keep(this.inner.push(frame));
  }

  interim(text: string): EarEvent[] {
    return this.keep(this.inner.interim(text));
  }

  recognized(text: string, endOfTurn: boolean): EarEvent[] {
    return this.keep(this.inner.recognized(text, endOfTurn));
  }

  agentSpeaking(on: boolean): void {
    this.inner.agentSpeaking(on);
  }

  lineEnded(giveUp: boolean): EarEvent[] {
    return this.keep(this.inner.lineEnded(giveUp));
  }

  /** The events of a type, in order. */
  of<T extends EarEvent['type']>(type: T): Array<Extract<EarEvent, { type: T }> & { nowMs: number }> {
    return this.heard.filter((e) => e.type === type) as Array<Extract<EarEvent, { type: T }> & { nowMs: number }>;
  }

  private keep(events: EarEvent[]): EarEvent[] {
    for (const e of events) this.heard.push({ ...e, nowMs: this.inner.nowMs });
    return events;
  }
}

export const BRIEF: LineBrief = {
  callId: 'call-cascaded-1',
  to: '+14155550150',
  objective: 'Ask whether the shop is open on Sunday.',
  context: null,
  fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }],
  language: 'en-US',
  voice: 'alloy',
};

export interface RigOptions {
  callee?: CalleePart[];
  /** The callee's audio's length; the line goes on with silence after it. */
  lineMs?: number;
  /** The fake Deepgram's options (from where the callee's speech is); its script follows that speech unless given. */
  deepgram?: FakeDeepgramOptions | ((said: Said[]) => FakeDeepgramOptions);
  recognizer?: Partial<DeepgramConfig>;
  chatModel?: Partial<OpenAiCompatibleOptions>;
  voice?: 'openai' | 'elevenlabs';
  openAiVoice?: Partial<OpenAiVoiceOptions>;
  ears?: EarSettings;
  timing?: Partial<CascadedTiming>;
  timeScale?: number;
  verdict?: Promise<AnswerVerdict>;
  brief?: LineBrief;
}

/** What the session's lifecycle was asked, in order: `recordOptOut`, `recordFailure`, `apology`, `turnsWritten`. */
export type LifecycleCall = 'recordOptOut' | 'recordVoicemail' | 'recordFailure' | 'apology' | 'turnsWritten';

export class Rig {
  session!: CascadedSession;
  readonly lifecycle: LifecycleCall[] = [];
  /** Waits the session asked for before a retry. */
  readonly sleeps: number[] = [];
  /** Turns the ledger wrote (direct sessions), with the ledger's order of them. */
  readonly written: Array<{ seq: number; turn: TimedTurn }> = [];
  readonly logs: string[] = [];
  readonly logger: Logger;
  readonly ears: RecordingEars;
  readonly providers: CascadedProviders;
  readonly brief: LineBrief;
  private readonly timing: CascadedTiming;

  private constructor(
    readonly line: TestLine,
    readonly said: Said[],
    readonly deepgram: FakeDeepgram,
    readonly chat: FakeChatStream,
    readonly speech: FakeOpenAiSpeech,
    readonly elevenlabs: FakeElevenLabs,
    options: RigOptions,
  ) {
    this.brief = options.brief ?? BRIEF;
    this.logger = pino({ level: 'debug' }, { write: (line: string) => void this.logs.push(line) });
    this.ears = new RecordingEars(new LineEars(loadFvad(), options.ears));
    const voice: SpeechSynthesizer =
      options.voice === 'elevenlabs'
        ? new ElevenLabsVoice({ apiKey: ELEVENLABS_KEY, baseUrl: elevenlabs.baseUrl, voice: 'voice-fake-1', stallMs: LOADED_MACHINE_STALL_MS })
        : new OpenAiVoice({ apiKey: TTS_KEY, baseUrl: speech.baseUrl, retryWaitMs: 50, stallMs: LOADED_MACHINE_STALL_MS, ...options.openAiVoice });
    this.providers = {
      recognizer: new DeepgramRecognizer({ apiKey: FAKE_DEEPGRAM_KEY, url: deepgram.url, ...options.recognizer }),
      model: new OpenAiCompatibleChatModel({ baseUrl: chat.baseUrl, apiKey: CHAT_KEY, model: 'gpt-4o-mini', ...options.chatModel }),
      voice,
      voiceName: null,
    };
    this.timing = { greetAfterMs: 1000, silence: { promptMs: 60_000, hangUpMs: 60_000 }, ...options.timing };
  }

  static async start(options: RigOptions = {}): Promise<Rig> {
    const parts = options.callee ?? [];
    // Room for each part: no line the tests say lasts 4 s.
    const lastEnd = parts.reduce((end, p) => (p.atMs ?? end + p.afterMs!) + 4000, 0);
    const { audio, said } = await calleeAudio(parts, options.lineMs ?? lastEnd);
    const [deepgram, chat, speech, elevenlabs] = await Promise.all([
      FakeDeepgram.start({ script: deepgramScript(parts, said), ...(typeof options.deepgram === 'function' ? options.deepgram(said) : options.deepgram) }),
      startFakeChatStream({ flavour: 'openai', apiKey: CHAT_KEY }),
      startFakeOpenAiSpeech({ apiKey: TTS_KEY, msPerChar: MS_PER_CHAR }),
      startFakeElevenLabs({ apiKey: ELEVENLABS_KEY }),
    ]);
    const line = new TestLine(audio, options.timeScale ?? 0.5, options.verdict);
    return new Rig(line, said, deepgram, chat, speech, elevenlabs, options);
  }

  /** The session joins the line and the line starts: directly, or through `join` (an agent's). */
  begin(join?: (brief: LineBrief, line: LiveLine, logger: Logger) => CascadedSession): CascadedSession {
    this.session = join
      ? join(this.brief, this.line, this.logger)
      : new CascadedSession(
          this.brief,
          this.line,
          new TurnLedger(this.line, async (seq, turn) => void this.written.push({ seq, turn }), this.logger, this.brief.callId),
          this.ears,
          CALL_TOOLS,
          this.providers,
          this.timing,
          {
            recordOptOut: async () => void this.lifecycle.push('recordOptOut'),
            recordVoicemail: async () => void this.lifecycle.push('recordVoicemail'),
            recordFailure: async () => void this.lifecycle.push('recordFailure'),
            apology: async () => {
              this.lifecycle.push('apology');
              return APOLOGY;
            },
            turnsWritten: async () => void this.lifecycle.push('turnsWritten'),
            sleep: async (ms) => void this.sleeps.push(ms),
          },
          this.logger,
        );
    this.line.start(this.session);
    return this.session;
  }

  /** The options a CascadedAgent takes to run this rig's providers and ears. */
  agentOptions() {
    return { providers: this.providers, timing: this.timing, ears: () => this.ears };
  }

  /** The session's end, bounded so a session that never ends fails the test rather than hanging it. */
  async done(ms = 20_000): Promise<LineEnd> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the session did not end within ${ms} ms`)), ms)));
    try {
      return await Promise.race([this.session.done, bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The turns written so far, in the call's order (as the store reads them back). */
  get turns(): TimedTurn[] {
    return [...this.written].sort((a, b) => a.seq - b.seq).map((w) => w.turn);
  }

  /** The model's texts the voice was asked to speak, in order. */
  get spokenInputs(): string[] {
    return this.speech.requests.map((r) => r.body.input as string);
  }

  /** Ends whatever is still running: the line (the callee hangs up), the session, the fakes. */
  async close(): Promise<void> {
    if (this.session && !this.line.over) await Promise.race([this.line.calleeHangsUp(), new Promise((r) => setTimeout(r, 3000))]);
    this.line.over = true;
    if (this.session) await Promise.race([this.session.done, new Promise((r) => setTimeout(r, 3000))]);
    await Promise.all([this.deepgram.close(), this.chat.close(), this.speech.close(), this.elevenlabs.close()]);
  }
}

/** Ears that hear what a test tells them to, at the next frame: call time is the audio pushed. */
export class ScriptedEars implements Ears {
  private bytes = 0;
  readonly speaking = false;
  next: EarEvent[] = [];
  get nowMs(): number {
    return this.bytes / 8;
  }
  push(frame: Buffer) {
    this.bytes += frame.length;
    return this.next.splice(0);
  }
  interim() {
    return [];
  }
  recognized() {
    return [];
  }
  agentSpeaking(): void {}
  lineEnded() {
    return [];
  }
}

/** A recogniser that hears nothing. */
export const silentRecognizer: SpeechRecognizer = {
  name: 'silent',
  open: async (): Promise<RecognitionStream> => ({ send: () => undefined, flush: () => undefined, close: async () => undefined }),
};

/** 100 ms of audio for each sentence it is given. */
export const tenthSecondVoice: SpeechSynthesizer = {
  name: 'test',
  async *speak(text) {
    for await (const _sentence of text) yield Buffer.alloc(800, 0x55);
  },
};
