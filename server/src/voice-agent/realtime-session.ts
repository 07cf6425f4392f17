// One call's conversation with the realtime model, on a live line: the callee's audio goes up as
// input_audio_buffer.append, the model's audio comes down to the line, and the model's events say what was said,
// which the turn ledger keeps (turn-ledger.ts). The model's function calls go to the call's tools (tools.ts); a
// client's tool that takes a while has the callee hear svc's filler clip (filler.ts), and its answer is asked
// about once no response runs (the server refuses a second one), whenever it comes.
//
// The session's lifecycle (docs/real-calls.md, "The model's session"): the model's socket is confirmed before
// anything it says reaches the line (realtime-link.ts), one warmed while the phone rang when there is one; the
// agent lets the callee speak first and greets after a short silence, and says nothing at all while the carrier
// is still deciding whether a machine answered (a line with a verdict to come: the model hears and transcribes,
// but is not asked to answer until the verdict is a person's; a machine's greeting gets nothing); a failed response or an error that passes
// is asked again once, a socket that drops is replaced once and told the conversation so far; past that the
// callee hears a short apology (apology.ts), the failure is recorded for the engine (the call ends
// `agent_unavailable`) and the line is hung up.
//
// Keys (docs/real-calls.md, "Keys"): the model presses them with press_keys (keypad.ts), answered once their tones
// have played and not asked to go on (quiet tools: what the menu says next is what it answers); keys the callee
// presses are grouped into one turn and told to the model as a user message.
//
// Hold ("Waiting on hold", hold.ts): once the model calls wait_on_hold, the callee's audio no longer goes up and
// nothing is asked of the model; svc's own voice activity detection watches the line, and speech sends up what was
// said (from a little before it began) and from then on the line as before. The model's clock then lags the line's
// by the audio it was not sent, so its times of the callee's speech are moved on by it. A hold past the call's budget
// is recorded and hung up.
//
// How it closes ("How a realtime call closes"): a silent line is prompted once and then hung up (silence-watch.ts);
// the goodbye of the response that called end_call plays out before the hang-up, and the callee's last words are
// committed and awaited when they hang up (closing.ts). A transfer (transfer.ts) closes the same way, its words
// played out, but the line is handed over to the person instead of hung up.
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../clock.js';
import type { AnswerVerdict, LineEnd, LineSession, LiveLine } from '../telephony/live-line.js';
import type { Apology } from './apology.js';
import { FILLER_AFTER_MS } from './filler.js';
import type { ToolCall } from '../generated/types.gen.js';
import { BargeIn } from './barge-in.js';
import { DEFAULT_END_GRACE_MS, DEFAULT_LAST_WORDS_MS, Goodbye, LastWords, wakeableWait } from './closing.js';
import { DEFAULT_HOLD_MAX_WAIT_SEC, type LineBrief, type Speaker } from '../conversation/conversation.js';
import { HOLD_TURN_TEXT } from '../conversation/turn-marks.js';
import { loadFvad } from './cascaded/voice-activity.js';
import { Hold, HoldEars } from './hold.js';
import { CalleeKeys, calleePressedNote, type KeyGroup, KeyPad, pressedTurnText } from './keypad.js';
import { errorEventAction, responseDoneAction } from './realtime-failures.js';
import { openConfirmedLink, type LinkTarget, type RealtimeLink } from './realtime-link.js';
import { DEFAULT_SILENCE, SILENCE_PROMPT, SilenceWatch, type SilenceBounds } from './silence-watch.js';
import type { Handover, ToolContext, ToolRegistry } from './tools.js';
import { handOver } from './transfer.js';
import type { TurnLedger } from './turn-ledger.js';
import { DEFAULT_TURN_TAKING, type TurnTaking } from '../settings/turn-taking.js';

/** Callee audio kept while the model's socket opens (10 s); older audio is dropped rather than piling up. */
const MAX_QUEUED_MESSAGES = 500;
/** The mark that follows the apology. */
const APOLOGY_MARK = 'svc_apology';
/** A retried response waits this long first: a rate limit names a wait of a second or two. */
const RETRY_DELAY_MS = 500;
/**
 * After the line ends with the callee not mid-turn as far as the model has said, how long a speech_started may still
 * come: server VAD reports speech a little after the audio it is in (its detection and the socket's transit), so a
 * callee who hung up as they began to speak is heard only after Twilio's `stop`.
 */
const LATE_SPEECH_MS = 300;
/** The apology must be ready this soon, or the line is hung up without it. */
const APOLOGY_READY_MS = 3000;
/** The items svc plays itself (the apology, the filler): the model has no such item to truncate. */
const isOwnItem = (itemId: string) => itemId.startsWith('svc_');

export interface RealtimeConnection extends LinkTarget {
  /** After end_call, how long the goodbye may take beyond its own length before the line is hung up anyway (closing.ts). */
  endGraceMs?: number;
  /** After the callee hangs up, how long their last words may take to be transcribed (closing.ts). */
  lastWordsMs?: number;
  /** When a silent line is prompted, and then hung up (silence-watch.ts). */
  silence?: SilenceBounds;
  /** How long the agent lets the callee speak first (the turn-taking setting unless told). */
  greetAfterMs?: number;
  /** Turn detection, noise reduction and barge-in (DEFAULT_TURN_TAKING unless told). */
  turnTaking?: TurnTaking;
}

/** The session.update a call's socket is opened with. */
export const sessionUpdateFor = (conn: RealtimeConnection, brief: LineBrief, tools: ToolRegistry) => conn.protocol.sessionUpdate(brief, tools.offered, conn.turnTaking ?? DEFAULT_TURN_TAKING);

/** How the session meets what lies outside the model's socket. */
export interface SessionLifecycle {
  /** A link warmed while the phone rang, if this process holds one (null when it failed). */
  warm?: Promise<RealtimeLink | null>;
  /** Records, durably, that the model could not go on (the engine ends the call agent_unavailable). */
  recordFailure(): Promise<void>;
  /** Records, durably, that the agent waited on hold past the call's budget (the engine ends the call hold_timeout). */
  recordHoldTimeout?(): Promise<void>;
  /** The apology in the call's language. */
  apology(language: string): Promise<Apology>;
  /** Records, durably, that every turn the session heard is written (the engine may read them from any process). */
  turnsWritten?(): Promise<void>;
  /** Records, durably, a use of a client tool (the record's toolCalls). */
  recordToolCall?(call: ToolCall): Promise<void>;
  /** Records, durably, that the agent handed the call over to `to` and left it. */
  recordTransfer?(to: string): Promise<void>;
  /** Whether the number is on the call's account's do-not-call list now. */
  listed?(e164: string): Promise<boolean>;
  /** svc's own "one moment" in the call's language, played while a client's tool takes long; none when absent. */
  filler?(language: string): Promise<Apology>;
  /**
   * The clock a retried response waits on, a back-off (the system's unless told). The session's other timers pace
   * the live line's audio, and run on the wall.
   */
  clock?: Clock;
}

type Json = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** A function call's arguments (a JSON object in a string); anything else is no arguments. */
function argumentsOf(v: unknown): Record<string, unknown> {
  try {
    const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : null;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const NO_LIFECYCLE: SessionLifecycle = {
  recordFailure: async () => undefined,
  apology: () => Promise.reject(new Error('no apology')),
};

export class RealtimeSession implements LineSession {
  readonly done: Promise<LineEnd>;
  private resolveDone!: (r: LineEnd) => void;
  private link: RealtimeLink | null = null;
  /** Callee audio waiting for a confirmed link. */
  private readonly queue: Json[] = [];
  private readonly tool: ToolContext;
  /** The function calls run, by call_id: the model's function call is reported by two events. */
  private readonly toolCalls = new Set<string>();
  /** The tools still working, and what stops them when the session ends. */
  private readonly running = new Set<Promise<void>>();
  private readonly toolsStop = new AbortController();
  private fillers = 0;
  private readonly bargeIn: BargeIn;
  private readonly goodbye: Goodbye;
  private readonly lastWords = new LastWords();
  private readonly silence: SilenceWatch;
  /** The session gives up or is over: nothing more is asked of the model. */
  private ending = false;
  /** The line ended under the session: no more audio comes, and nothing is hung up. */
  private lineEnded = false;
  private over = false;
  /** Every turn and use of a tool is written, and the line recorded closed: what the engine waits for (keepingLastWords). */
  private recorded = false;
  /** Wakes the wait for a late speech_started after the line ended. */
  private lateSpeech: (() => void) | null = null;
  /** Wakes the wait for the agent's words of the turn the line ended in: they came, or its response is over. */
  private agentWordsCame: (() => void) | null = null;
  private endTimer: NodeJS.Timeout | null = null;
  private greetTimer: NodeJS.Timeout | null = null;
  /** Cancels the wait before a retried response. */
  private retryTimer: (() => void) | null = null;
  /** The model has spoken or been asked to (the greeting is no longer due). */
  private greeted = false;
  /** The agent holds its words until the line's verdict (LiveLine.verdict); for good once it is a machine's. */
  private held: boolean;
  private responseActive = false;
  /** A tool's answer came while a response ran: the model is to be asked again once it is done. */
  private answerOwed = false;
  /** Failures retried in a row; a response that completes resets it. */
  private retries = 0;
  private reconnected = false;
  private failure: Promise<void> | null = null;
  /** What was said in this session, item by item in the order each began, to carry it on into a new session. */
  private readonly said = new Map<string, { speaker: Speaker; text: string | null }>();
  private readonly keypad: KeyPad;
  private readonly calleeKeys = new CalleeKeys();
  private keyTurns = 0;
  /** The agent leaves the call by handing it over (a transfer) once its words have played. */
  private handover: Handover | null = null;
  private notes = 0;
  private readonly hold: Hold;
  /** svc's ears while the model hears nothing, from call time `holdFromMs`. */
  private holdEars: HoldEars | null = null;
  private holdFromMs = 0;
  /** The hold's turn, its place kept from when it began. */
  private holdItem: string | null = null;
  private holdTurns = 0;
  private holdTimeout: Promise<void> | null = null;
  /** Ms of the line's audio sent to the model, and held back from it on hold (not yet counted as a gap). */
  private sentMs = 0;
  private heldMs = 0;
  /** The line's audio the model never got: from its own time `fromModelMs` on, its clock is `ms` behind the line's. */
  private readonly gaps: Array<{ fromModelMs: number; ms: number }> = [];

  constructor(
    private readonly brief: LineBrief,
    private readonly line: LiveLine,
    private readonly ledger: TurnLedger,
    private readonly tools: ToolRegistry,
    private readonly conn: RealtimeConnection,
    private readonly logger: Logger,
    /** Records that the callee asked not to be called again (durably: the engine reads it as the call ends). */
    recordOptOut: () => Promise<void>,
    /** Records that the line is a voicemail greeting (the voicemail_detected tool; machine-screen.ts). */
    recordVoicemail?: () => Promise<void>,
    private readonly lifecycle: SessionLifecycle = NO_LIFECYCLE,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.keypad = new KeyPad(line, ledger, logger, brief.callId);
    this.hold = new Hold(brief.holdMaxWaitMs ?? DEFAULT_HOLD_MAX_WAIT_SEC * 1000);
    this.tool = {
      callId: brief.callId,
      line,
      logger,
      language: brief.language,
      endCall: () => this.goodbye.request(),
      recordOptOut,
      recordVoicemail,
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
      conn.endGraceMs ?? DEFAULT_END_GRACE_MS,
    );
    this.silence = new SilenceWatch(conn.silence ?? DEFAULT_SILENCE, { prompt: () => this.promptSilence(), hangUp: () => this.silent() });
    this.bargeIn = new BargeIn((conn.turnTaking ?? DEFAULT_TURN_TAKING).interruptAfterMs, () => this.cutIn());
    this.held = line.verdict !== undefined;
    line.verdict?.then(
      (v) => this.verdictCame(v),
      () => this.verdictCame('person'),
    );
    void this.start();
  }

  /**
   * Whether the line has ended and the session is still keeping the callee's last words or writing its records (done
   * resolves once they are written): the turns it holds to write in order are written only as it closes.
   */
  get keepingLastWords(): boolean {
    return this.lineEnded && !this.recorded;
  }

  heard(payload: string, timestampMs: number | null): void {
    if (this.ending || this.goodbye.ending || this.lineEnded) return;
    this.ledger.heard(payload, timestampMs);
    if (this.hold.expired(this.ledger.nowMs)) return void this.holdRanOut();
    if (this.hold.holding) this.listenOnHold(payload);
    else this.sendAudio(payload);
    const keys = this.calleeKeys.due(this.ledger.nowMs);
    if (keys) this.calleePressed(keys);
    // A tool at work is the agent's turn, as its audio playing is: the callee waiting on it is not a silent line. Nor
    // is a hold: nobody is expected to speak.
    this.silence.heard(this.ledger.nowMs, this.ledger.playing || this.running.size > 0 || this.hold.holding);
  }

  private sendAudio(payload: string): void {
    this.sentMs += Buffer.byteLength(payload, 'base64') / 8;
    const append = { type: 'input_audio_buffer.append', audio: payload };
    if (this.link) this.link.send(append);
    else if (this.queue.length < MAX_QUEUED_MESSAGES) this.queue.push(append);
  }

  /** On hold: svc's ears hear the line, and the model nothing of it until they hear speech (heardOnHold). */
  private listenOnHold(payload: string): void {
    this.heldMs += Buffer.byteLength(payload, 'base64') / 8;
    this.holdEars?.push(payload);
  }

  /** Speech on hold wakes the model with what was said from a little before it began. */
  private heardOnHold(ears: HoldEars, atMs: number): void {
    if (this.holdEars !== ears || this.ending) return;
    this.hold.wake(this.holdFromMs + atMs);
    this.logger.info({ callId: this.brief.callId }, 'speech on hold: the model hears the line again');
    const kept = ears.takeKept();
    this.heldMs -= kept.reduce((ms, p) => ms + Buffer.byteLength(p, 'base64') / 8, 0);
    this.closeHoldGap();
    for (const p of kept) this.sendAudio(p);
    this.closeHoldEars();
  }

  /** The model hears the line again: the audio it did not get is a gap between its clock and the line's. */
  private closeHoldGap(): void {
    if (this.heldMs > 0) this.gaps.push({ fromModelMs: this.sentMs, ms: this.heldMs });
    this.heldMs = 0;
  }

  /** The line's time of a time on the model's clock (which counts only the audio it was sent). */
  private lineMs(modelMs: number | null): number | null {
    if (modelMs === null) return null;
    let ms = modelMs;
    for (const gap of this.gaps) if (modelMs >= gap.fromModelMs) ms += gap.ms;
    return ms;
  }

  /** The model called wait_on_hold: from now it hears nothing and is asked nothing until someone speaks. */
  private waitOnHold(): void {
    if (this.ending || this.goodbye.ending || this.lineEnded) return;
    const nowMs = this.ledger.nowMs;
    if (!this.hold.on) {
      this.holdItem = `hold-${++this.holdTurns}`;
      this.ledger.begin(this.holdItem, 'agent', nowMs);
      this.logger.info({ callId: this.brief.callId }, 'on hold: the model hears nothing until someone speaks');
    }
    this.hold.enter(nowMs);
    this.closeHoldEars();
    const ears: HoldEars = new HoldEars(loadFvad(), (atMs) => this.heardOnHold(ears, atMs));
    this.holdEars = ears;
    this.holdFromMs = nowMs;
    // What the server has of the line so far (the recording that said to hold) is no turn to answer.
    this.send({ type: 'input_audio_buffer.clear' });
    if (this.greetTimer) clearTimeout(this.greetTimer);
    this.greetTimer = null;
    this.greeted = true;
  }

  /** The agent speaks (or presses keys, or the line ends) after a hold: the wait is a turn, up to the speech that ended it. */
  private holdOver(): void {
    const span = this.hold.end(this.ledger.nowMs);
    this.closeHoldGap();
    this.closeHoldEars();
    if (!span || !this.holdItem) return;
    this.ledger.note(this.holdItem, 'agent', span.startMs, span.endMs, HOLD_TURN_TEXT);
    this.holdItem = null;
  }

  private closeHoldEars(): void {
    this.holdEars?.close();
    this.holdEars = null;
  }

  /** The agent has waited on hold, hearing nothing, for the call's budget: recorded, then hung up. */
  private holdRanOut(): void {
    if (this.ending) return;
    this.logger.info({ callId: this.brief.callId }, "waited on hold past the call's limit; hanging up");
    this.holdOver();
    this.holdTimeout = (this.lifecycle.recordHoldTimeout?.() ?? Promise.resolve()).catch((err: Error) =>
      this.logger.error({ callId: this.brief.callId, err: err.message }, 'could not record the hold timeout'),
    );
    void this.finish('hold_timeout');
  }

  marked(name: string): void {
    if (this.keypad.marked(name)) return;
    if (name === APOLOGY_MARK) void this.finish('agent_lost');
    else if (!this.goodbye.markedBack(name)) this.ledger.marked(name);
  }

  /** A key the callee pressed: kept with the keys pressed close after it, and told the model as one note (keypad.ts). */
  dtmf(digit: string): void {
    if (this.ending || this.goodbye.ending || this.lineEnded) return;
    this.calleeKeys.press(digit, this.ledger.nowMs);
  }

  /**
   * The callee's keys are a turn of theirs, and a user message to the model, which answers it as it would their
   * words: at once, or once the response running has finished; not while the callee is speaking (their turn's end
   * brings the answer) nor while the agent holds its words.
   */
  private calleePressed(group: KeyGroup): void {
    const itemId = `callee-keys-${++this.keyTurns}`;
    this.ledger.note(itemId, 'callee', group.startMs, group.endMs, pressedTurnText(group.keys));
    if (this.ending || this.goodbye.ending || this.lineEnded) return;
    const note = calleePressedNote(group.keys);
    this.heardOf(itemId, 'callee', note);
    this.silence.calleeSpoke();
    const item = { type: 'conversation.item.create', item: this.conn.protocol.historyItem('callee', note) };
    // No socket yet: the note goes up with the audio kept meanwhile. A socket being replaced is told it with the
    // rest of the conversation (attach's carry-on).
    if (!this.link) {
      if (!this.reconnected && this.queue.length < MAX_QUEUED_MESSAGES) this.queue.push(item);
      return;
    }
    this.link.send(item);
    if (this.held || this.hold.holding || this.lastWords.speaking) return;
    if (this.responseActive) {
      this.answerOwed = true;
      return;
    }
    if (this.greetTimer) clearTimeout(this.greetTimer);
    this.greetTimer = null;
    this.greeted = true;
    this.link.send({ type: 'response.create' });
  }

  /**
   * The line ended (the callee hung up, or the carrier did): the callee's turn in progress is committed and every
   * turn heard is given a bounded time to be transcribed, then the model's socket is closed.
   */
  ended(): Promise<LineEnd> {
    if (this.lineEnded || this.over) return this.done;
    this.lineEnded = true;
    this.keypad.close();
    if (this.link && this.lastWords.speaking) this.send({ type: 'input_audio_buffer.commit' });
    const waiting = this.link && !this.ending ? this.lastWordsSettled() : Promise.resolve();
    void waiting.then(() => this.finish('line_ended'));
    return this.done;
  }

  /**
   * The last words on the line, each transcribed or given up on within lastWordsMs: the callee's (a turn the model
   * reports only now included), and the agent's turn that was playing, whose transcript the model sends once it has
   * made the whole turn, which can be after a callee who hung up early in it is gone.
   */
  private async lastWordsSettled(): Promise<void> {
    const boundMs = this.conn.lastWordsMs ?? DEFAULT_LAST_WORDS_MS;
    await Promise.all([this.calleeWordsSettled(boundMs), this.agentWordsSettled(boundMs)]);
  }

  private async agentWordsSettled(boundMs: number): Promise<void> {
    if (!this.ledger.agentWordsDue) return;
    await wakeableWait(boundMs, (wake) => {
      this.agentWordsCame = wake;
    });
  }

  private async calleeWordsSettled(boundMs: number): Promise<void> {
    if (!this.lastWords.speaking) {
      await wakeableWait(LATE_SPEECH_MS, (wake) => {
        this.lateSpeech = wake;
      });
    }
    await this.lastWords.settled(boundMs);
  }

  /** The warm link, else a fresh one (a second socket when the first is not confirmed); else the call gives up. */
  private async start(): Promise<void> {
    const warm = this.lifecycle.warm ? await this.lifecycle.warm.catch(() => null) : null;
    if (warm?.open) return this.attach(warm, false);
    if (this.lifecycle.warm) this.logger.info({ callId: this.brief.callId }, 'no warm realtime session to take; opening a fresh one');
    try {
      this.attach(await openConfirmedLink(this.conn, sessionUpdateFor(this.conn, this.brief, this.tools), this.logger.child({ callId: this.brief.callId })), false);
    } catch {
      void this.giveUp('session not confirmed');
    }
  }

  /** Puts a confirmed link to work: what the callee said meanwhile goes up, and the agent greets or carries on. */
  private attach(link: RealtimeLink, carryOn: boolean): void {
    if (this.ending) return link.close();
    link.listen(
      (e) => this.onEvent(e),
      (code) => void this.dropped(code),
    );
    if (carryOn) {
      const said = [...this.said.values()].filter((t): t is { speaker: Speaker; text: string } => t.text !== null);
      for (const t of said) link.send({ type: 'conversation.item.create', item: this.conn.protocol.historyItem(t.speaker, t.text) });
      // The callee spoke last: the agent owes an answer. Otherwise it waits for the callee, as it was.
      if (said.length > 0 && said[said.length - 1]!.speaker === 'callee' && !this.held) link.send({ type: 'response.create' });
      if (said.length === 0) this.greeted = false;
    }
    this.link = link;
    // Before any of the callee's audio: the server must not answer a turn it hears while the agent holds its words.
    if (this.held) link.send(this.conn.protocol.answering(this.turnTaking, false));
    for (const m of this.queue.splice(0)) link.send(m);
    if (!this.greeted) this.armGreeting();
  }

  private get turnTaking(): TurnTaking {
    return this.conn.turnTaking ?? DEFAULT_TURN_TAKING;
  }

  /**
   * The carrier has decided who answered. A machine (its greeting over: the carrier leaves the message) gets nothing
   * from the model. A person is answered now: what they said while the agent held its words, or, if they said
   * nothing, the greeting; one still speaking is answered when their turn ends, as any turn is.
   */
  private verdictCame(verdict: AnswerVerdict): void {
    if (!this.held || this.ending) return;
    if (verdict === 'machine') {
      this.logger.info({ callId: this.brief.callId }, 'a machine answered: the agent stays silent');
      return;
    }
    this.held = false;
    if (!this.link) return;
    this.link.send(this.conn.protocol.answering(this.turnTaking, true));
    if (this.greeted || this.responseActive || this.lastWords.speaking) return;
    if (this.greetTimer) clearTimeout(this.greetTimer);
    this.greetTimer = null;
    this.greeted = true;
    this.link.send({ type: 'response.create' });
  }

  /** The agent greets after a short silence, unless the callee speaks first (then the model answers them). */
  private armGreeting(): void {
    if (this.greetTimer) clearTimeout(this.greetTimer);
    this.greetTimer = setTimeout(() => {
      this.greetTimer = null;
      if (this.greeted || this.ending || this.held || this.hold.on || !this.link) return;
      this.greeted = true;
      this.link.send({ type: 'response.create' });
    }, this.conn.greetAfterMs ?? this.turnTaking.greetAfterMs);
  }

  private send(event: Json): void {
    this.link?.send(event);
  }

  private onEvent(e: Json): void {
    const itemId = str(e.item_id);
    switch (e.type) {
      case 'input_audio_buffer.speech_started':
        if (itemId) this.ledger.calleeStarted(itemId, this.lineMs(num(e.audio_start_ms)));
        if (itemId) this.heardOf(itemId, 'callee', null);
        if (itemId) this.lastWords.started(itemId);
        // The line ended before the model heard this turn begin: it is committed now, as it would have been then.
        if (this.lineEnded && this.lateSpeech) {
          this.send({ type: 'input_audio_buffer.commit' });
          this.lateSpeech();
        }
        if (this.greetTimer) clearTimeout(this.greetTimer);
        this.greetTimer = null;
        this.bargeIn.started();
        break;
      case 'input_audio_buffer.speech_stopped':
        if (itemId) this.ledger.calleeStopped(itemId, this.lineMs(num(e.audio_end_ms)));
        if (itemId) this.lastWords.stopped(itemId);
        this.bargeIn.stopped();
        // Speech the model does not answer (noise) leaves the greeting due.
        if (!this.greeted) this.armGreeting();
        break;
      case 'input_audio_buffer.committed':
        if (itemId) this.lastWords.committed(itemId);
        break;
      case 'conversation.item.input_audio_transcription.completed':
        if (itemId) this.ledger.said(itemId, 'callee', str(e.transcript));
        if (itemId) this.heardOf(itemId, 'callee', str(e.transcript));
        if (itemId) this.lastWords.transcribed(itemId);
        if (str(e.transcript)?.trim()) this.silence.calleeSpoke();
        break;
      case 'conversation.item.input_audio_transcription.failed':
        if (itemId) this.ledger.said(itemId, 'callee', null);
        if (itemId) this.lastWords.transcribed(itemId);
        break;
      case 'response.created':
        this.responseActive = true;
        this.greeted = true;
        this.goodbye.responseStarted();
        break;
      case 'response.done':
        this.responseActive = false;
        this.agentWordsCame?.();
        this.goodbye.responseDone();
        this.responseDone(e.response);
        if (this.answerOwed && !this.retryTimer && !this.ending && !this.goodbye.ending) this.send({ type: 'response.create' });
        this.answerOwed = false;
        break;
      case this.conn.protocol.events.audioDelta: {
        const delta = str(e.delta);
        if (itemId && delta !== null && !this.ending && this.goodbye.takesAudio) {
          this.ledger.play(itemId, delta);
          // The model answers what woke it: the hold is over. (Audio of the response that called wait_on_hold plays on.)
          if (this.hold.on && !this.hold.holding) this.holdOver();
        }
        if (itemId) this.heardOf(itemId, 'agent', null);
        break;
      }
      case this.conn.protocol.events.audioDone:
        this.ledger.markSent();
        break;
      case this.conn.protocol.events.audioTranscriptDone:
        this.ledger.markSent();
        if (itemId) this.ledger.said(itemId, 'agent', str(e.transcript));
        if (itemId) this.heardOf(itemId, 'agent', str(e.transcript));
        if (!this.ledger.agentWordsDue) this.agentWordsCame?.();
        break;
      case 'response.function_call_arguments.done':
        this.functionCalled(str(e.name), str(e.call_id), e.arguments);
        break;
      case 'response.output_item.done': {
        const item = typeof e.item === 'object' && e.item !== null ? (e.item as Json) : null;
        if (item?.type === 'function_call') this.functionCalled(str(item.name), str(item.call_id), item.arguments);
        break;
      }
      case 'error': {
        const err = typeof e.error === 'object' && e.error !== null ? (e.error as Json) : {};
        this.logger.warn({ callId: this.brief.callId, type: str(err.type), code: str(err.code), message: str(err.message) }, 'realtime error event');
        const action = errorEventAction(err);
        if (action === 'give_up') void this.giveUp(`error ${str(err.code) ?? str(err.type)}`);
        // A request refused while no response runs: ask again. One that fails a running response ends it `failed`.
        else if (action === 'retry' && !this.responseActive) this.retry(`error ${str(err.code) ?? str(err.type)}`);
        break;
      }
    }
  }

  /** Keeps an item's place in the conversation from when it began, and its words once known. */
  private heardOf(itemId: string, speaker: Speaker, text: string | null): void {
    const t = this.said.get(itemId);
    const words = text?.trim() || null;
    if (!t) this.said.set(itemId, { speaker, text: words });
    else if (words) t.text = words;
  }

  /** The callee has talked over the agent for long enough: its audio is stopped where they heard it. */
  private cutIn(): void {
    const cut = this.ledger.cutIn();
    if (!cut) return;
    this.keypad.cleared();
    if (!isOwnItem(cut.itemId)) this.send({ type: 'conversation.item.truncate', item_id: cut.itemId, content_index: 0, audio_end_ms: cut.heardMs });
    // The server leaves its response running when svc decides the barge-in (interrupt_response false).
    if (this.responseActive && this.turnTaking.interruptAfterMs > 0) this.send({ type: 'response.cancel' });
  }

  private responseDone(response: unknown): void {
    const status = typeof response === 'object' && response !== null ? (response as Json).status : null;
    if (status === 'completed') this.retries = 0;
    const action = responseDoneAction(response);
    if (action === 'give_up') void this.giveUp(`response ${String(status)}`);
    else if (action === 'retry') this.retry(`response ${String(status)}`);
  }

  /** Asks for the response once more, after a short wait; a second failure in a row gives up. */
  private retry(why: string): void {
    if (this.ending || this.retryTimer) return;
    if (this.retries >= 1) return void this.giveUp(`${why}, again`);
    this.retries++;
    this.logger.warn({ callId: this.brief.callId, why }, 'realtime response failed; asking again');
    this.retryTimer = (this.lifecycle.clock ?? systemClock).setTimer(RETRY_DELAY_MS, () => {
      this.retryTimer = null;
      if (!this.ending && !this.responseActive) this.send({ type: 'response.create' });
    });
  }

  /** The model's socket closed under the call: one new session carries the conversation on, else the call gives up. */
  private async dropped(code: number): Promise<void> {
    this.link = null;
    this.responseActive = false;
    // The line is gone already: the last words are what they are.
    if (this.lineEnded) return void this.finish('line_ended');
    if (this.ending) return;
    if (this.reconnected) return void this.giveUp(`socket closed (${code}), again`);
    this.reconnected = true;
    this.logger.warn({ callId: this.brief.callId, code }, 'realtime socket closed mid-call; opening a new session with the conversation so far');
    try {
      const link = await openConfirmedLink(this.conn, sessionUpdateFor(this.conn, this.brief, this.tools), this.logger.child({ callId: this.brief.callId }), 1);
      this.attach(link, true);
    } catch {
      void this.giveUp(`socket closed (${code}) and no new session`);
    }
  }

  /**
   * Runs the tool the model called, once per call; its answer goes back to the model, which goes on. A remote tool
   * still working after FILLER_AFTER_MS has the callee hear the filler.
   */
  private functionCalled(name: string | null, callId: string | null, args: unknown): void {
    const tool = name === null ? undefined : this.tools.find(name);
    if (!tool || (callId !== null && this.toolCalls.has(callId))) return;
    if (callId !== null) this.toolCalls.add(callId);
    const filler = tool.remote ? setTimeout(() => void this.sayFiller(), FILLER_AFTER_MS) : null;
    const settled: Promise<void> = Promise.resolve(tool.run(argumentsOf(args), this.tool))
      .then(
        (output) => {
          if (output === undefined || callId === null || this.over) return;
          this.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output: JSON.stringify(output) } });
          // A quiet tool's answer asks for nothing: what the line says next is what the model answers.
          if (this.ending || this.goodbye.ending || tool.quiet) return;
          // A tool that took a while (keys playing out, a client's tool) may answer while another response runs: the
          // model is asked again once that one is done, since the server refuses a second at once.
          if (this.responseActive) this.answerOwed = true;
          else this.send({ type: 'response.create' });
        },
        (err: Error) => this.logger.error({ callId: this.brief.callId, tool: tool.name, err: err.message }, 'tool failed'),
      )
      .finally(() => {
        if (filler) clearTimeout(filler);
        this.running.delete(settled);
      });
    this.running.add(settled);
  }

  /** A client's tool is taking long: the callee hears "one moment", unless something plays or is about to. */
  private async sayFiller(): Promise<void> {
    const quiet = () => !this.ending && !this.goodbye.ending && !this.held && !this.responseActive && !this.ledger.playing;
    if (!this.lifecycle.filler || !quiet()) return;
    let clip: Apology;
    try {
      clip = await this.lifecycle.filler(this.brief.language);
    } catch (err) {
      this.logger.warn({ callId: this.brief.callId, err: (err as Error).message }, 'no filler to play');
      return;
    }
    if (!quiet()) return;
    const item = `svc_filler_${++this.fillers}`;
    for (let at = 0; at < clip.audio.length; at += 160) this.ledger.play(item, clip.audio.subarray(at, at + 160).toString('base64'));
    this.ledger.said(item, 'agent', clip.text);
    this.ledger.markSent();
  }

  /** The line has been silent (silence-watch.ts): the model is asked, as the system, to check once. */
  private promptSilence(): void {
    if (this.ending || this.goodbye.ending || this.held || this.hold.holding) return;
    this.send({ type: 'conversation.item.create', item: { type: 'message', role: 'system', content: [{ type: 'input_text', text: SILENCE_PROMPT }] } });
    this.send({ type: 'response.create' });
  }

  private silent(): void {
    this.logger.info({ callId: this.brief.callId }, 'the line stayed silent after the prompt; hanging up');
    void this.finish('silence');
  }

  /**
   * The model cannot go on: the failure is recorded for the engine, the callee hears the apology (its mark says
   * when it has played, bounded by its length), and the line is hung up.
   */
  private async giveUp(why: string): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    this.clearTimers();
    this.link?.close();
    this.link = null;
    this.logger.warn({ callId: this.brief.callId, why }, 'realtime model unavailable; apologising and hanging up');
    this.failure = this.lifecycle.recordFailure().catch((err: Error) => this.logger.error({ callId: this.brief.callId, err: err.message }, 'could not record the agent failure'));
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
    const item = 'svc_apology';
    for (let at = 0; at < apology.audio.length; at += 160) this.ledger.play(item, apology.audio.subarray(at, at + 160).toString('base64'));
    this.ledger.said(item, 'agent', apology.text);
    this.ledger.markSent();
    this.line.mark(APOLOGY_MARK);
    this.endTimer = setTimeout(() => void this.finish('agent_lost'), apology.audio.length / 8 + 2000);
  }

  private clearTimers(): void {
    for (const t of [this.endTimer, this.greetTimer]) if (t) clearTimeout(t);
    this.retryTimer?.();
    this.endTimer = this.greetTimer = this.retryTimer = null;
    this.bargeIn.close();
    this.goodbye.stop();
  }

  private async finish(reason: LineEnd): Promise<void> {
    if (this.over) return;
    this.over = true;
    this.ending = true;
    this.clearTimers();
    // The model's transcriber may deliver the callee's words after the model has answered them, even after its
    // goodbye: words whose turn has ended are waited for, bounded, before the socket closes (the line's end has
    // waited for them already).
    if (this.link && reason !== 'line_ended' && this.lastWords.transcribing) await this.lastWords.settled(this.conn.lastWordsMs ?? DEFAULT_LAST_WORDS_MS);
    this.link?.close();
    this.link = null;
    this.keypad.close();
    this.holdOver();
    const keys = this.calleeKeys.flush();
    if (keys) this.calleePressed(keys);
    if (reason !== 'transferred') this.handover?.abandon();
    // A tool still working is given up, and its use recorded so, before the call's records are closed.
    this.toolsStop.abort();
    await Promise.all(this.running);
    const handedOver = reason === 'transferred' && (await handOver(this.handover!, this.ledger, this.logger, this.brief.callId));
    // The failure (or the hold that ran out) is on the call before the carrier hears of the end, so the engine reads
    // it with the turns.
    await this.failure;
    await this.holdTimeout;
    // Every turn is written before the carrier hears of the end, so the engine reads the whole transcript.
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
