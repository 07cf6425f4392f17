// Key presses on a live line, both ways, for either live agent.
//
// The agent's (KeyPad): the press_keys tool sends keys as tones after what the agent has said (LiveLine.sendDigits)
// and a mark after them; the press is answered once the mark comes back, so the model hears that the keys went out
// only when the callee's end has heard them. A clear of the line (the callee talked over the agent) drops tones not
// yet played, so a press pending then is answered as cut off; a line that ends answers nothing. Each press that
// played is a turn of the agent's, `[pressed 1 2]`, ending when its mark came back.
//
// The callee's (CalleeKeys): each key the carrier reports is grouped with the ones before it while they come less
// than GROUP_MS apart (a callee typing a number is one turn, not one per key), on call time, so the session checks
// for a group that is over as the callee's audio arrives and never needs a timer of its own. A group becomes a turn
// of the callee's, `[pressed 1 2 3]`, and a note to the model, `[The callee pressed 1 2 3]`.
import type { Logger } from 'pino';
import { pressedTurnText } from '../conversation/turn-marks.js';
import { dtmfDurationMs } from '../tones/dtmf-tones.js';
import type { LiveLine } from '../telephony/live-line.js';
import type { TurnLedger } from './turn-ledger.js';

/** Keys the callee presses less than this far apart (call time) are one turn. */
export const GROUP_MS = 1500;
/** The mark that follows each press, numbered; no other mark of a session starts so. */
const MARK_PREFIX = 'svc_keys_';
/** Past its tones' length, how long a press waits for its mark before it is taken as played (a line that never answers). */
const MARK_GRACE_MS = 5000;

/** How a press went: its tones played, or were cut off by a clear, or the line ended first. */
export type PressOutcome = 'played' | 'cut_off' | 'line_ended';

export { pressedTurnText };
export const calleePressedNote = (keys: readonly string[]) => `[The callee pressed ${keys.join(' ')}]`;

/** The keys of a press as the turn lists them: the pauses are not keys. */
const keysOf = (digits: string) => [...digits].filter((k) => k !== 'w' && k !== 'W');

interface Pending {
  name: string;
  digits: string;
  sentAtMs: number;
  cut: boolean;
  timer: NodeJS.Timeout;
  resolve(outcome: PressOutcome): void;
}

export class KeyPad {
  private readonly pending: Pending[] = [];
  private count = 0;
  private closed = false;

  constructor(
    private readonly line: Pick<LiveLine, 'sendDigits' | 'mark'>,
    private readonly ledger: Pick<TurnLedger, 'nowMs' | 'note'>,
    private readonly logger: Logger,
    private readonly callId: string,
  ) {}

  /** Sends the keys after what the agent has said; resolves once they have played, been cut off, or the line ended. */
  press(digits: string): Promise<PressOutcome> {
    if (this.closed) return Promise.resolve('line_ended');
    const name = `${MARK_PREFIX}${++this.count}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.logger.warn({ callId: this.callId, mark: name }, 'the line did not say the keys played; taking them as played');
        this.settle(name);
      }, dtmfDurationMs(digits) + MARK_GRACE_MS);
      timer.unref();
      this.pending.push({ name, digits, sentAtMs: this.ledger.nowMs, cut: false, timer, resolve });
      this.line.sendDigits(digits);
      this.line.mark(name);
    });
  }

  /** A mark came back: true when it is one of the keypad's (the session need look no further). */
  marked(name: string): boolean {
    if (!name.startsWith(MARK_PREFIX)) return false;
    this.settle(name);
    return true;
  }

  /** The line was cleared: tones still waiting to play were dropped with the rest. */
  cleared(): void {
    for (const p of this.pending) p.cut = true;
  }

  /** The session is over: presses still waiting are answered as the line ending. */
  close(): void {
    this.closed = true;
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.resolve('line_ended');
    }
  }

  /** Settles the press whose mark this is, and any before it (marks come back in order). */
  private settle(name: string): void {
    const i = this.pending.findIndex((p) => p.name === name);
    if (i < 0) return;
    for (const p of this.pending.splice(0, i + 1)) {
      clearTimeout(p.timer);
      if (p.cut) {
        p.resolve('cut_off');
        continue;
      }
      const endMs = Math.round(this.ledger.nowMs);
      const startMs = Math.max(Math.round(p.sentAtMs), endMs - dtmfDurationMs(p.digits));
      const keys = keysOf(p.digits);
      if (keys.length > 0) this.ledger.note(p.name, 'agent', startMs, endMs, pressedTurnText(keys));
      p.resolve('played');
    }
  }
}

/** Keys the callee pressed close together: one turn. */
export interface KeyGroup {
  keys: string[];
  startMs: number;
  endMs: number;
}

export class CalleeKeys {
  private group: KeyGroup | null = null;

  /** A key the callee pressed, at call time `atMs`. */
  press(key: string, atMs: number): void {
    if (this.group) {
      this.group.keys.push(key);
      this.group.endMs = atMs;
    } else {
      this.group = { keys: [key], startMs: atMs, endMs: atMs };
    }
  }

  /** The group, once GROUP_MS of call time has passed since its last key; null while it may grow. */
  due(nowMs: number): KeyGroup | null {
    if (!this.group || nowMs - this.group.endMs < GROUP_MS) return null;
    return this.flush();
  }

  /** The group so far, whatever the time (the line is ending). */
  flush(): KeyGroup | null {
    const g = this.group;
    this.group = null;
    return g;
  }
}
