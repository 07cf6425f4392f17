// One call's conversation by the cascaded agent on a live line: the callee's audio goes to the recogniser and to
// svc's own ears (voice activity, endpointing, barge-in: ears.ts), each callee turn that ends goes to the chat model
// with the conversation so far, and the reply is spoken as it is written: sentence by sentence to the voice
// (chat-model/sentences.ts), the voice's audio to the line as it comes (the turn ledger marks it and keeps what was
// heard). The model's tool calls go to the call's tools (tools.ts) and their answers back to the model; a client's
// tool that takes a while has the callee hear a short filler in the agent's own voice (filler.ts). The model is
// asked again only once every tool it called has answered, each answer placed right after the call that asked
// for it, so the conversation stays one the chat-completions API takes even when the callee speaks meanwhile.
//
// Its lifecycle follows the realtime session's (docs/real-calls.md): the agent lets the callee speak first and
// greets after a short silence, and holds its words while the carrier decides whether a machine answered; a
// provider that fails is tried once more where that is safe (nothing of the reply played yet), else the callee
// hears the apology, the failure is recorded (the call ends `agent_unavailable`) and the line is hung up. A silent
// line is prompted once, then hung up; the goodbye plays out before the hang-up (and a transfer's words before the
// line is handed over to the person instead: transfer.ts); when the callee hangs up, their last words are
// recognised (bounded) before the session closes. The model presses keys with press_keys, answered once their
// tones have played and not asked again (quiet tools: what the menu says next is what it answers); keys the callee
// presses are grouped into one turn and given to the model as a user message (keypad.ts; docs/real-calls.md,
// "Keys"). Once the model calls wait_on_hold it is asked nothing until the callee's turn brings words (the ears and
// the recogniser keep listening; hold.ts); a hold past the call's budget is recorded and hung up.
//
// Every timing rule runs on call time (the callee's audio: a line sends a frame every 20 ms, silent or not), so a
// session is deterministic under test and its timers never drift from what the callee heard; the filler's wait is
// the one on the wall, as the tool it waits on is a network request.
import type { Logger } from 'pino';
import type { ChatDelta, ChatMessage, ChatModel, ToolCallRequest } from '../../chat-model/chat-model.js';
import { chatTools } from '../../chat-model/chat-model.js';
import { SentenceSplitter } from '../../chat-model/sentences.js';
import { DEFAULT_HOLD_MAX_WAIT_SEC, type LineBrief } from '../../conversation/conversation.js';
import { HOLD_TURN_TEXT } from '../../conversation/turn-marks.js';
import { ProviderError } from '../../speech/provider-error.js';
import type { SpeechRecognizer } from '../../speech/recognizer.js';
import type { SpeechSynthesizer } from '../../speech/voice.js';
import type { AnswerVerdict, LineEnd, LineSession, LiveLine } from '../../telephony/live-line.js';
import type { Apology } from '../apology.js';
import { FILLER_AFTER_MS, fillerText } from '../filler.js';
import type { ToolCall } from '../../generated/types.gen.js';
import { DEFAULT_END_GRACE_MS, DEFAULT_LAST_WORDS_MS, Goodbye } from '../closing.js';
import { Hold } from '../hold.js';
import { CalleeKeys, calleePressedNote, type KeyGroup, KeyPad, pressedTurnText } from '../keypad.js';
import { realtimeInstructions } from '../realtime-instructions.js';
import { DEFAULT_SILENCE, SILENCE_PROMPT, SilenceWatch, type SilenceBounds } from '../silence-watch.js';
import type { Handover, ToolContext, ToolRegistry } from '../tools.js';
import { handOver } from '../transfer.js';
import type { TurnLedger } from '../turn-ledger.js';
import type { StageMarks } from '../turn-timing.js';
import { hasWords } from './barge-in-detector.js';
import type { Ears, EarEvent } from './ears.js';
import { RecognizerFeed } from './recognizer-feed.js';
import { TextQueue } from './text-queue.js';

/** The mark that follows the apology. */
const APOLOGY_MARK = 'svc_apology';
/** The apology must be ready this soon, or the line is hung up without it. */
const APOLOGY_READY_MS = 3000;
/** Rounds of tool calls one reply may take before the agent stops asking the model (a model that loops). */
const MAX_TOOL_ROUNDS = 4;
/** The longest a retried request waits when the provider names a longer wait: the callee is on the line. */
const MAX_RETRY_WAIT_MS = 2000;
/** A retry waits this long when the provider does not say. */
const RETRY_WAIT_MS = 300;
/** Speech rate used to cut a reply's text where the callee cut in while its audio was still being made. */
const MS_PER_WORD = 60_000 / 165;

export interface CascadedProviders {
  recognizer: SpeechRecognizer;
  model: ChatModel;
  voice: SpeechSynthesizer;
  /** The voice's name (SVC_TTS_VOICE), the adapter's default when null. */
  voiceName: string | null;
}

export interface CascadedTiming {
  /** How long the agent lets the callee speak first before it greets them (call time). */
  greetAfterMs: number;
  /** When a silent line is prompted, and then hung up. */
  silence?: SilenceBounds;
  /** After end_call, how long the goodbye may take beyond its own length. */
  endGraceMs?: number;
  /** After the callee hangs up, how long their last words may take to be recognised. */
  lastWordsMs?: number;
}

/** How the session meets what lies outside it. */
export interface CascadedLifecycle {
  recordOptOut(): Promise<void>;
  recordVoicemail?(): Promise<void>;
  recordFailure(): Promise<void>;
  /** Records, durably, that the agent waited on hold past the call's budget (the engine ends the call hold_timeout). */
  recordHoldTimeout?(): Promise<void>;
  apology(language: string): Promise<Apology>;
  turnsWritten?(): Promise<void>;
  /** Records, durably, a use of a client tool (the record's toolCalls). */
  recordToolCall?(call: ToolCall): Promise<void>;
  /** Records, durably, that the agent handed the call over to `to` and left it. */
  recordTransfer?(to: string): Promise<void>;
  /** Whether the number is on the call's account's do-not-call list now. */
  listed?(e164: string): Promise<boolean>;
  /** Waits before a retry (the system clock's sleep unless a test moves time). */
  sleep(ms: number): Promise<void>;
}

/** What one model request of a reply said on the line: an item of the ledger. */
interface Spoken {
  itemId: string;
  /** The words handed to the voice so far, and whether the voice has made all of their audio. */
  text: string;
  synthesized: boolean;
  /** Audio bytes sent to the line. */
  sentBytes: number;
  /** Its message in the model's conversation, once the request is over. */
  message: ChatMessage | null;
  /** svc's filler while a tool works: not the model's words, so never in its conversation. */
  filler?: boolean;
}

/** One reply in progress: a model request, and another after each round of tool answers. */
interface Reply {
  abort: AbortController;
  spoken: Spoken;
  marks: StageMarks;
}

const now = () => performance.now();

export class CascadedSession implements LineSession {
  readonly done: Promise<LineEnd>;
  private resolveDone!: (r: LineEnd) => void;
  /** The callee's audio to the recogniser. */
  private readonly feed = new RecognizerFeed();
  private readonly history: ChatMessage[];
  private readonly tool: ToolContext;
  private readonly goodbye: Goodbye;
  private readonly silence: SilenceWatch;
  private reply: Reply | null = null;
  /** The agent's latest item sent to the line: what a barge-in cuts. */
  private lastSpoken: Spoken | null = null;
  private items = 0;
  private calleeTurns = 0;
  private calleeItem: string | null = null;
  private greeted = false;
  private held: boolean;
  private ending = false;
  private lineEnded = false;
  private over = false;
  /** Every turn and use of a tool is written, and the line recorded closed: what the engine waits for (keepingLastWords). */
  private recorded = false;
  private failure: Promise<void> | null = null;
  private endTimer: NodeJS.Timeout | null = null;
  /** Wakes the last words' wait when the callee's turn in progress has ended. */
  private lastTurn: (() => void) | null = null;
  /** Call time the callee last stopped speaking (or the line began): the greeting counts from it. */
  private quietSince = 0;
  private readonly keypad: KeyPad;
  /** Settles once the tools of the latest round have answered. */
  private toolsRunning: Promise<void> = Promise.resolve();
  private readonly calleeKeys = new CalleeKeys();
  private keyTurns = 0;
  /** The callee's keys are in the conversation and no request of the model has held them yet. */
  private keysUnanswered = false;
  /** The tools still working, and what stops them when the session ends. */
  private readonly running = new Set<Promise<unknown>>();
  private readonly toolsStop = new AbortController();
  /** Stops the filler playing, if one is. */
  private fillerStop: AbortController | null = null;
  /** The agent leaves the call by handing it over (a transfer) once its words have played. */
  private handover: Handover | null = null;
  private notes = 0;
  private readonly hold: Hold;
  /** The hold's turn, its place kept from when it began. */
  private holdItem: string | null = null;
  private holdTurns = 0;
  private holdTimeout: Promise<void> | null = null;

  constructor(
    private readonly brief: LineBrief,
    private readonly line: LiveLine,
    private readonly ledger: TurnLedger,
    private readonly ears: Ears,
    private readonly tools: ToolRegistry,
    private readonly providers: CascadedProviders,
    private readonly timing: CascadedTiming,
    private readonly lifecycle: CascadedLifecycle,
    private readonly logger: Logger,
    /** Told the stages of each agent turn as its first audio goes to the line. */
    private readonly onStages: (marks: StageMarks) => void = () => undefined,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.history = [{ role: 'system', content: realtimeInstructions(brief) }];
    this.keypad = new KeyPad(line, ledger, logger, brief.callId);
    this.hold = new Hold(brief.holdMaxWaitMs ?? DEFAULT_HOLD_MAX_WAIT_SEC * 1000);
    this.tool = {
      callId: brief.callId,
      line,
      logger,
      language: brief.language,
      endCall: () => this.goodbye.request(),
      recordOptOut: () => lifecycle.recordOptOut(),
      recordVoicemail: lifecycle.recordVoicemail,
      pressKeys: (digits) => {
        this.holdOver();
        return this.keypad.press(digits);
      },
      waitOnHold: () => this.waitOnHold(),
      recordToolCall: lifecycle.recordToolCall,
      handOver: (handover) => {
        if (this.goodbye.ending) return;
        this.handover = handover;
        this.goodbye.request();
      },
      note: (text) => ledger.note(`svc_note_${++this.notes}`, 'agent', ledger.nowMs, ledger.nowMs, text),
      listed: lifecycle.listed,
      signal: this.toolsStop.signal,
    };
    this.goodbye = new Goodbye(
      {
        markSent: () => ledger.markSent(),
        mark: (name) => line.mark(name),
        unplayedMs: () => ledger.unplayedMs,
        hangUp: () => void this.finish(this.handover ? 'transferred' : 'end_call'),
      },
      timing.endGraceMs ?? DEFAULT_END_GRACE_MS,
    );
    this.silence = new SilenceWatch(timing.silence ?? DEFAULT_SILENCE, { prompt: () => this.promptSilence(), hangUp: () => this.silent() });
    this.held = line.verdict !== undefined;
    line.verdict?.then(
      (v) => this.verdictCame(v),
      () => this.verdictCame('person'),
    );
    void this.open();
  }

  /** Whether the line has ended and the session is still keeping the callee's last words or writing its records. */
  get keepingLastWords(): boolean {
    return this.lineEnded && !this.recorded;
  }

  /** The conversation as the model sees it (a copy). */
  get conversation(): ChatMessage[] {
    return this.history.map((m) => ({ ...m }));
  }

  private async open(): Promise<void> {
    const { recognizer } = this.providers;
    try {
      const stream = await recognizer.open(
        { callId: this.brief.callId, language: this.brief.language, logger: this.logger },
        {
          interim: (text) => this.onEars(this.ears.interim(text)),
          final: (text, endOfTurn) => this.onEars(this.ears.recognized(text, endOfTurn)),
          failed: (err) => void this.giveUp(`recogniser ${err.failure}`),
        },
      );
      if (this.over) return void stream.close(0);
      this.feed.opened(stream);
    } catch (err) {
      void this.giveUp(`recogniser not opened (${err instanceof ProviderError ? err.failure : 'error'})`);
    }
  }

  heard(payload: string, timestampMs: number | null): void {
    if (this.over) return;
    this.ledger.heard(payload, timestampMs);
    const frame = Buffer.from(payload, 'base64');
    this.feed.push(frame);
    this.onEars(this.ears.push(frame));
    this.feed.setQuiet(this.calleeItem === null && !this.ears.speaking);
    if (this.ending || this.goodbye.ending || this.lineEnded) return;
    if (this.hold.expired(this.ledger.nowMs)) return void this.holdRanOut();
    const keys = this.calleeKeys.due(this.ledger.nowMs);
    if (keys) this.calleePressed(keys);
    // A tool at work is the agent's turn, as its audio playing is: the callee waiting on it is not a silent line. Nor
    // is a hold (nobody is expected to speak), nor a turn of the callee's still open (a menu's long prompt).
    this.silence.heard(this.ledger.nowMs, this.ledger.playing || this.running.size > 0 || this.hold.holding || this.calleeItem !== null);
    // A callee whose turn is still open (its end not yet decided) is answered when it ends, not greeted over.
    if (!this.greeted && !this.held && !this.hold.on && !this.ears.speaking && this.calleeItem === null && this.ears.nowMs - this.quietSince >= this.timing.greetAfterMs) {
      this.greeted = true;
      void this.respond();
    }
  }

  marked(name: string): void {
    if (this.keypad.marked(name)) return;
    if (name === APOLOGY_MARK) void this.finish('agent_lost');
    else if (!this.goodbye.markedBack(name)) this.ledger.marked(name);
    if (!this.ledger.playing) this.ears.agentSpeaking(false);
  }

  /** A key the callee pressed: kept with the keys pressed close after it, and told the model as one message (keypad.ts). */
  dtmf(digit: string): void {
    if (this.ending || this.goodbye.ending || this.lineEnded) return;
    this.calleeKeys.press(digit, this.ledger.nowMs);
  }

  /**
   * The callee's keys are a turn of theirs and a user message to the model, answered as their words are: at once,
   * or by the reply under way (its next request, or one made when it ends); not while the callee is speaking (their
   * turn's end brings the answer) nor while the agent holds its words.
   */
  private calleePressed(group: KeyGroup): void {
    this.ledger.note(`callee-keys-${++this.keyTurns}`, 'callee', group.startMs, group.endMs, pressedTurnText(group.keys));
    if (this.ending || this.goodbye.ending || this.lineEnded) return;
    this.history.push({ role: 'user', content: calleePressedNote(group.keys) });
    this.keysUnanswered = true;
    this.silence.calleeSpoke();
    this.greeted = true;
    if (this.held || this.hold.holding || this.reply || this.ears.speaking || this.calleeItem !== null) return;
    void this.respond();
  }

  /** The model called wait_on_hold: it is asked nothing until the callee's turn brings words. */
  private waitOnHold(): void {
    if (this.ending || this.goodbye.ending || this.lineEnded) return;
    const nowMs = this.ledger.nowMs;
    if (!this.hold.on) {
      this.holdItem = `hold-${++this.holdTurns}`;
      this.ledger.begin(this.holdItem, 'agent', nowMs);
      this.logger.info({ callId: this.brief.callId }, 'on hold: the model is asked nothing until someone speaks');
    }
    this.hold.enter(nowMs);
    this.greeted = true;
  }

  /** The agent speaks (or presses keys, or the line ends) after a hold: the wait is a turn, up to the speech that ended it. */
  private holdOver(): void {
    const span = this.hold.end(this.ledger.nowMs);
    if (!span || !this.holdItem) return;
    this.ledger.note(this.holdItem, 'agent', span.startMs, span.endMs, HOLD_TURN_TEXT);
    this.holdItem = null;
  }

  /** The agent has waited on hold, the model hearing nothing, for the call's budget: recorded, then hung up. */
  private holdRanOut(): void {
    if (this.ending) return;
    this.logger.info({ callId: this.brief.callId }, "waited on hold past the call's limit; hanging up");
    this.holdOver();
    this.holdTimeout = (this.lifecycle.recordHoldTimeout?.() ?? Promise.resolve()).catch((err: Error) =>
      this.logger.error({ callId: this.brief.callId, err: err.message }, 'could not record the hold timeout'),
    );
    void this.finish('hold_timeout');
  }

  ended(): Promise<LineEnd> {
    if (this.lineEnded || this.over) return this.done;
    this.lineEnded = true;
    this.keypad.close();
    // What the agent was saying when the line ended (a reply, a filler) is on the record as far as the callee heard
    // it: stopped now, it never gets its words from a finished stream.
    const spoken = this.lastSpoken;
    if (spoken) this.ledger.lineEndedMidItem(spoken.itemId, (heardMs) => heardText(spoken, heardMs));
    this.reply?.abort.abort();
    void this.lastWords().then(() => this.finish('line_ended'));
    return this.done;
  }

  /** The callee's turn in progress when the line ended, recognised and written, bounded. */
  private async lastWords(): Promise<void> {
    if (this.ending || !this.feed.open) return;
    this.feed.flush();
    if (!this.ears.speaking && this.calleeItem === null) return;
    const bound = this.timing.lastWordsMs ?? DEFAULT_LAST_WORDS_MS;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.onEars(this.ears.lineEnded(true));
        this.lastTurn?.();
      }, bound);
      this.lastTurn = () => {
        clearTimeout(timer);
        this.lastTurn = null;
        resolve();
      };
      this.onEars(this.ears.lineEnded(false));
    });
  }

  private onEars(events: readonly EarEvent[]): void {
    for (const e of events) {
      switch (e.type) {
        case 'speech_started':
          this.calleeItem ??= `callee-${++this.calleeTurns}`;
          this.ledger.calleeStarted(this.calleeItem, e.atMs);
          // The callee took the floor before the agent's reply reached the line: that reply is dropped, and the
          // agent answers the whole of what they say once their turn ends.
          if (this.reply && this.reply.spoken.sentBytes === 0 && !this.goodbye.ending) this.dropReply();
          break;
        case 'speech_stopped':
          this.quietSince = e.atMs;
          break;
        case 'barge_in':
          this.cutIn();
          break;
        case 'turn_ended':
          this.turnEnded(e.text, e.startMs, e.endMs);
          break;
        case 'flush':
          this.feed.flush();
          break;
      }
    }
  }

  private turnEnded(text: string, startMs: number, endMs: number): void {
    const item = this.calleeItem ?? `callee-${++this.calleeTurns}`;
    this.calleeItem = null;
    this.quietSince = endMs;
    this.ledger.calleeStopped(item, endMs);
    const words = text.trim();
    this.ledger.said(item, 'callee', words);
    if (this.lastTurn) return this.lastTurn();
    if (!words) return;
    // Words on hold wake the model: it answers a person, or waits again through a recording.
    this.hold.wake(startMs);
    this.silence.calleeSpoke();
    // A listener's "uh-huh" while the agent talks is no bid for the turn (barge-in-detector.ts): the agent goes on.
    if (!hasWords(words) && (this.reply !== null || this.ledger.playing)) return;
    this.history.push({ role: 'user', content: words });
    this.greeted = true;
    if (this.held || this.ending || this.goodbye.ending || this.lineEnded) return;
    if (this.reply) this.dropReply();
    void this.respond(now());
  }

  /** A reply not yet heard is abandoned (the callee spoke again first). */
  private dropReply(): void {
    const reply = this.reply;
    if (!reply) return;
    reply.abort.abort();
    this.reply = null;
  }

  /** The callee talked over the agent long enough: the agent's audio stops where they heard it. */
  private cutIn(): void {
    if (this.goodbye.ending) return;
    const spoken = this.lastSpoken;
    const cut = this.ledger.cutIn((heardMs) => (spoken ? heardText(spoken, heardMs) : null));
    if (cut) this.keypad.cleared();
    this.reply?.abort.abort();
    this.reply = null;
    this.fillerStop?.abort();
    this.ears.agentSpeaking(false);
    if (!cut || !spoken || cut.itemId !== spoken.itemId || spoken.filler) return;
    // The model is told what the callee actually heard of its turn, not what it wrote.
    const heard = heardText(spoken, cut.heardMs);
    const message = spoken.message as (ChatMessage & { role: 'assistant' }) | null;
    if (message && (heard || message.tool_calls)) message.content = heard;
    else if (message) this.history.splice(this.history.indexOf(message), 1);
    else if (heard) this.history.push({ role: 'assistant', content: heard });
  }

  /**
   * One agent turn: the model's reply spoken as it is written, its tool calls run and answered, until the model
   * says no more. A failed request is tried once more while nothing of the turn has played.
   */
  private async respond(endpointAt: number | null = null): Promise<void> {
    if (this.ending || this.over) return;
    const reply: Reply = {
      abort: new AbortController(),
      spoken: this.newSpoken(),
      marks: { endpointAt, modelAskedAt: null, firstTokenAt: null, voiceAskedAt: null, firstAudioAt: null },
    };
    this.reply = reply;
    this.goodbye.responseStarted();
    try {
      for (let round = 0; round < MAX_TOOL_ROUNDS && !reply.abort.signal.aborted; round++) {
        if (round > 0) reply.spoken = this.newSpoken();
        // Tools an earlier reply called answer first: the model is never asked with a call left unanswered.
        await this.toolsRunning;
        if (reply.abort.signal.aborted) break;
        const calls = await this.speakWithRetry(reply);
        if (calls.length === 0 || reply.abort.signal.aborted) break;
        if (!(await this.runTools(calls, reply.spoken.message)) || this.goodbye.ending || this.hold.holding) break;
      }
    } catch (err) {
      if (!reply.abort.signal.aborted) void this.giveUp(err instanceof ProviderError ? `${err.provider} ${err.failure}` : `reply failed: ${(err as Error).message}`);
    } finally {
      const current = this.reply === reply;
      if (current) this.reply = null;
      this.ledger.markSent();
      this.goodbye.responseDone();
      // The callee's keys came after this reply's last request: they are answered now.
      if (current && this.keysUnanswered && !reply.abort.signal.aborted && !this.held && !this.hold.holding && !this.ending && !this.goodbye.ending && !this.lineEnded) void this.respond();
    }
  }

  private newSpoken(): Spoken {
    return { itemId: `agent-${++this.items}`, text: '', synthesized: false, sentBytes: 0, message: null };
  }

  private async speakWithRetry(reply: Reply): Promise<ToolCallRequest[]> {
    const mark = this.history.length;
    try {
      return await this.speak(reply);
    } catch (err) {
      if (!(err instanceof ProviderError) || !err.retryable || reply.spoken.sentBytes > 0 || reply.abort.signal.aborted) throw err;
      this.history.length = mark;
      reply.spoken.text = '';
      this.logger.warn({ callId: this.brief.callId, provider: err.provider, failure: err.failure }, 'provider failed before the reply was heard; asking again');
      await this.lifecycle.sleep(Math.min(err.retryAfterMs ?? RETRY_WAIT_MS, MAX_RETRY_WAIT_MS));
      if (reply.abort.signal.aborted) return [];
      return this.speak(reply);
    }
  }

  /** One model request, its text spoken as it streams; returns the tool calls it asked for. */
  private async speak(reply: Reply): Promise<ToolCallRequest[]> {
    const { model, voice, voiceName } = this.providers;
    // The request's own abort: the reply's (the callee cut in, the line ended), or the failure of the voice or of the
    // model, which stops the other without being taken for the reply's end, so the failure is retried or apologised for.
    const request = new AbortController();
    const stop = () => request.abort();
    reply.abort.signal.addEventListener('abort', stop, { once: true });
    const signal = request.signal;
    const sentences = new TextQueue();
    const splitter = new SentenceSplitter();
    const calls: ToolCallRequest[] = [];
    let text = '';
    const toVoice = (pieces: string[]) => {
      for (const p of pieces) {
        reply.marks.voiceAskedAt ??= now();
        reply.spoken.text = reply.spoken.text ? `${reply.spoken.text} ${p}` : p;
        sentences.push(p);
      }
    };
    try {
      const audio = voice.speak(sentences, { callId: this.brief.callId, language: this.brief.language, voice: voiceName, logger: this.logger, signal });
      const playing = this.play(reply, audio, signal);
      // A voice that fails while the model still writes stops the model's stream; its failure is thrown below.
      playing.catch(stop);
      try {
        reply.marks.modelAskedAt ??= now();
        this.keysUnanswered = false;
        const deltas: AsyncIterable<ChatDelta> = model.reply({
          callId: this.brief.callId,
          brief: this.brief,
          messages: this.history,
          tools: chatTools(this.tools.offered),
          logger: this.logger,
          signal,
        });
        for await (const d of deltas) {
          if (signal.aborted) break;
          reply.marks.firstTokenAt ??= now();
          if (d.type === 'text') {
            text += d.text;
            toVoice(splitter.push(d.text));
          } else calls.push(d.call);
        }
        toVoice(splitter.end());
      } catch (err) {
        // The model failed: what the voice would still make of the reply is not played, and a retry never speaks
        // over it.
        sentences.end();
        stop();
        await playing.catch(() => undefined);
        throw err;
      } finally {
        sentences.end();
      }
      await playing;
    } finally {
      reply.abort.signal.removeEventListener('abort', stop);
    }
    if (reply.abort.signal.aborted) return [];
    const spoken = reply.spoken;
    spoken.synthesized = true;
    const content = text.trim() || null;
    if (content !== null || calls.length > 0) {
      const message: ChatMessage & { role: 'assistant' } = {
        role: 'assistant',
        content,
        ...(calls.length > 0 ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
      };
      this.history.push(message);
      spoken.message = message;
    }
    if (spoken.text) this.ledger.said(spoken.itemId, 'agent', spoken.text);
    return calls;
  }

  /** Sends the voice's audio to the line as it comes, through the ledger. */
  private async play(reply: Reply, audio: AsyncIterable<Buffer>, signal: AbortSignal): Promise<void> {
    const spoken = reply.spoken;
    for await (const chunk of audio) {
      if (signal.aborted || this.ending) break;
      if (spoken.sentBytes === 0) {
        if (reply.marks.firstAudioAt === null) {
          reply.marks.firstAudioAt = now();
          this.onStages(reply.marks);
        }
        // The model answers what woke it: the hold is over.
        if (this.hold.on && !this.hold.holding) this.holdOver();
        this.lastSpoken = spoken;
      }
      // The agent's audio plays again after a gap (its voice slower than the line, every mark back): the ears hear the
      // agent speaking once more, so a callee who took up the gap and talks on over it barges in.
      if (!this.ledger.playing) this.ears.agentSpeaking(true);
      spoken.sentBytes += chunk.length;
      this.ledger.play(spoken.itemId, chunk.toString('base64'));
    }
  }

  /**
   * Runs the tools the model called, one after the other; true when the model is to be asked again with the answers:
   * when any tool but a quiet one answered (a quiet tool's answer waits for what the line says next). Each answer
   * goes right after the message that called it: a message that came while a tool ran (the callee's words or keys)
   * goes after the answers, as a chat model requires, and a reply begun meanwhile waits for them (`toolsRunning`). A
   * remote tool still working after FILLER_AFTER_MS has the callee hear the filler.
   */
  private runTools(calls: readonly ToolCallRequest[], asked: ChatMessage | null): Promise<boolean> {
    const run = (async () => {
      let answered = false;
      for (const call of calls) {
        const tool = this.tools.find(call.name);
        const filler = tool?.remote ? setTimeout(() => void this.sayFiller(), FILLER_AFTER_MS) : null;
        const work = Promise.resolve(tool ? tool.run(argumentsOf(call.arguments), this.tool) : { error: `no tool named ${call.name}` });
        this.running.add(work);
        let output: Awaited<typeof work>;
        try {
          output = await work;
        } finally {
          this.running.delete(work);
          if (filler) clearTimeout(filler);
        }
        if (output === undefined) continue;
        if (!tool?.quiet) answered = true;
        const answer: ChatMessage = { role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) };
        let at = asked ? this.history.indexOf(asked) + 1 : 0;
        if (at === 0) this.history.push(answer);
        else {
          while (this.history[at]?.role === 'tool') at++;
          this.history.splice(at, 0, answer);
        }
      }
      return answered;
    })();
    this.toolsRunning = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** A client's tool is taking long: the callee hears "one moment" in the agent's voice, unless the line is busy. */
  private async sayFiller(): Promise<void> {
    if (this.ending || this.goodbye.ending || this.lineEnded || this.ledger.playing || this.ears.speaking || this.fillerStop) return;
    const stop = new AbortController();
    this.fillerStop = stop;
    const text = fillerText(this.brief.language);
    const spoken: Spoken = { ...this.newSpoken(), text, filler: true };
    const words = new TextQueue();
    words.push(text);
    words.end();
    try {
      const { voice, voiceName } = this.providers;
      for await (const chunk of voice.speak(words, { callId: this.brief.callId, language: this.brief.language, voice: voiceName, logger: this.logger, signal: stop.signal })) {
        if (stop.signal.aborted || this.ending) break;
        if (spoken.sentBytes === 0) {
          this.lastSpoken = spoken;
          this.ears.agentSpeaking(true);
        }
        spoken.sentBytes += chunk.length;
        this.ledger.play(spoken.itemId, chunk.toString('base64'));
      }
      spoken.synthesized = true;
      if (spoken.sentBytes > 0) this.ledger.said(spoken.itemId, 'agent', text);
    } catch (err) {
      // The filler is a courtesy: a voice that fails here fails the reply when it next speaks, not now.
      this.logger.warn({ callId: this.brief.callId, err: (err as Error).message }, 'the filler could not be said');
    } finally {
      this.ledger.markSent();
      if (this.fillerStop === stop) this.fillerStop = null;
    }
  }

  private verdictCame(verdict: AnswerVerdict): void {
    if (!this.held || this.ending) return;
    if (verdict === 'machine') {
      this.logger.info({ callId: this.brief.callId }, 'a machine answered: the agent stays silent');
      return;
    }
    this.held = false;
    if (this.reply || this.ears.speaking || this.calleeItem !== null) return;
    this.greeted = true;
    void this.respond();
  }

  private promptSilence(): void {
    if (this.ending || this.goodbye.ending || this.held || this.hold.holding || this.reply) return;
    this.history.push({ role: 'system', content: SILENCE_PROMPT });
    void this.respond();
  }

  private silent(): void {
    this.logger.info({ callId: this.brief.callId }, 'the line stayed silent after the prompt; hanging up');
    void this.finish('silence');
  }

  /** A provider cannot go on: the failure is recorded, the callee hears the apology, and the line is hung up. */
  private async giveUp(why: string): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    this.reply?.abort.abort();
    this.fillerStop?.abort();
    this.goodbye.stop();
    this.logger.warn({ callId: this.brief.callId, why }, 'the cascaded agent cannot go on; apologising and hanging up');
    this.failure = this.lifecycle.recordFailure().catch((err: Error) => this.logger.error({ callId: this.brief.callId, err: err.message }, 'could not record the agent failure'));
    if (this.lineEnded) return this.finish('line_ended');
    let apology: Apology;
    try {
      apology = await Promise.race([
        this.lifecycle.apology(this.brief.language),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('apology not ready')), APOLOGY_READY_MS).unref()),
      ]);
    } catch (err) {
      this.logger.warn({ callId: this.brief.callId, err: (err as Error).message }, 'no apology to play');
      return this.finish('agent_lost');
    }
    if (this.over) return;
    // What the line still holds of the failed reply is dropped: the apology is what the callee hears next. The
    // transcript keeps what they heard of the reply, as a barge-in's does.
    const spoken = this.lastSpoken;
    if (this.ledger.cutIn((heardMs) => (spoken ? heardText(spoken, heardMs) : null))) this.keypad.cleared();
    const item = 'svc_apology';
    for (let at = 0; at < apology.audio.length; at += 160) this.ledger.play(item, apology.audio.subarray(at, at + 160).toString('base64'));
    this.ledger.said(item, 'agent', apology.text);
    this.ledger.markSent();
    this.line.mark(APOLOGY_MARK);
    this.endTimer = setTimeout(() => void this.finish('agent_lost'), apology.audio.length / 8 + 2000);
  }

  private async finish(reason: LineEnd): Promise<void> {
    if (this.over) return;
    this.over = true;
    this.ending = true;
    if (this.endTimer) clearTimeout(this.endTimer);
    this.goodbye.stop();
    this.reply?.abort.abort();
    this.keypad.close();
    this.holdOver();
    const keys = this.calleeKeys.flush();
    if (keys) this.calleePressed(keys);
    this.fillerStop?.abort();
    if (reason !== 'transferred') this.handover?.abandon();
    // A tool still working is given up, and its use recorded so, before the call's records are closed.
    this.toolsStop.abort();
    await Promise.allSettled(this.running);
    const handedOver = reason === 'transferred' && (await handOver(this.handover!, this.ledger, this.logger, this.brief.callId));
    await this.feed.close(500)?.catch(() => undefined);
    await this.failure;
    await this.holdTimeout;
    await this.ledger.close();
    await this.lifecycle.turnsWritten?.().catch((err: Error) => this.logger.error({ callId: this.brief.callId, err: err.message }, 'could not record the line closed'));
    this.recorded = true;
    const end: LineEnd = reason === 'transferred' && !handedOver ? 'end_call' : reason;
    if (end === 'transferred') {
      await this.lifecycle.recordTransfer?.(this.handover!.to).catch((err: Error) => this.logger.error({ callId: this.brief.callId, err: err.message }, 'could not record the transfer'));
    } else if (end !== 'line_ended') {
      await this.line.hangUp(end).catch((err: Error) => this.logger.error({ callId: this.brief.callId, err: err.message }, 'hang-up failed'));
    }
    this.resolveDone(end);
  }
}

/**
 * The words of a reply the callee heard, `heardMs` of its audio: by the share of its audio played once the voice
 * has made all of it, else at the speaking rate; null when nothing was heard.
 */
export function heardText(spoken: Pick<Spoken, 'text' | 'synthesized' | 'sentBytes'>, heardMs: number): string | null {
  const words = spoken.text.split(/\s+/).filter(Boolean);
  if (words.length === 0 || heardMs <= 0) return null;
  const share = spoken.synthesized && spoken.sentBytes > 0 ? (heardMs * 8) / spoken.sentBytes : heardMs / MS_PER_WORD / words.length;
  const n = Math.min(words.length, Math.round(words.length * Math.min(1, share)));
  return n > 0 ? words.slice(0, n).join(' ') : null;
}

/** A tool call's arguments (a JSON object in a string); anything else is no arguments. */
function argumentsOf(v: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(v);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
