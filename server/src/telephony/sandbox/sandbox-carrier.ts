// The sandbox carrier (the default): a simulated telephone network. Numbers in the fictional NANP range
// +1 NPA 555-01XX choose their outcome by the last two digits; every other number is answered and completes.
//
//   555-0111  no_answer        rings 30 s, nobody picks up
//   555-0112  voicemail        rings 15 s, an answering machine picks up; for a call that leaves a message, it
//                              greets in the call's language, beeps, and takes the message until hung up
//   555-0113  declined         rings 6 s, the recipient rejects the call
//   555-0114  failed           after 1 s the network reports it cannot reach the number (carrier_unreachable)
//   555-0115  long call        answered; the conversation runs past the maximum call duration and is cut there
//   555-0116  drops            answered, then the line drops 20 s into the conversation (failed, call_dropped)
//   555-0117  silent           the network never reports anything; the engine's watchdog ends it (carrier_timeout)
//   555-0118  opts out         answered; after the agent's opening the callee asks not to be called again, the agent
//                              apologises and ends the call (completed, optOut: true, the number listed)
//   555-0125  key menu         answered by a menu of keys two levels deep; the right keys put a person on
//   555-0126  spoken menu      answered by a menu that wants the option said; then a person
//   555-0127  hold             answered by "please hold", a minute of hold music, then a person
//   555-0128  asks for person  answered; after the agent's opening the callee asks to speak to a person: a call
//                              placed with `transfer` is transferred (completed, transferredTo), any other declined
//   555-0129  never answers    rings 30 s, nobody picks up; as a transfer's number, nobody takes the transfer
//   555-0131  asks a question answered; after the agent's opening the callee asks where its order is, and the agent
//                              answers through the call's first client tool (a signed POST; the use on the record and
//                              the streams), or says it will follow up when the call has none; then completes
//   anything else              rings 4 s, answered, completes
//
// Ring and talk times are real-world lengths; SVC_SANDBOX_TIME_SCALE multiplies the wall-clock time they take
// (0.001 makes a minute-long call take 60 ms). Every dial is written to the sandbox_dials ledger.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { markSandboxHungUp, readSandboxHungUp, recordSandboxDial } from '../../store/calls/sandbox-dials.js';
import type { SandboxLines } from './sandbox-lines.js';
import { speechMs } from '../../conversation/conversation.js';
import { lexiconFor } from '../../conversation/lexicon.js';
import { sandboxScenario, type SandboxScenario } from '../../numbers/sandbox-numbers.js';
import type { Carrier, Dialled, DialRequest, LineEvent, LineNews, MachineGreeting } from '../carrier.js';

/** Call-time milliseconds of each scenario's ringing, and when an answered call drops. */
const RING_MS: Record<SandboxScenario, number> = {
  completed: 4000,
  long: 4000,
  drops: 4000,
  no_answer: 30_000,
  voicemail: 15_000,
  declined: 6000,
  failed: 1000,
  silent: 0,
  opts_out: 4000,
  interrupts: 4000,
  pauses: 4000,
  talks_over: 4000,
  noisy: 4000,
  key_menu: 4000,
  spoken_menu: 4000,
  hold: 4000,
  asks_for_person: 4000,
  never_answers: 30_000,
  asks_question: 4000,
};
export const SANDBOX_DROP_AFTER_MS = 20_000;
/** The answering machine's beep: this long after its greeting, lasting this long; the message may start after it. */
const BEEP_GAP_MS = 300;
const BEEP_MS = 500;

/** What the sandbox's answering machine says before its beep, in the call's language. */
export function sandboxGreeting(language: string): MachineGreeting {
  const text = lexiconFor(language).callee.voicemailGreeting;
  const endMs = speechMs(text);
  return { text, endMs, beepStartMs: endMs + BEEP_GAP_MS, beepEndMs: endMs + BEEP_GAP_MS + BEEP_MS };
}

interface SandboxState {
  scenario: SandboxScenario;
  /** The call leaves a voicemail message: the machine greets and beeps, then the line stays up. */
  leaveMessage?: boolean;
  language?: string;
  /** Wall-clock ms of the dial. */
  dialledAt: number;
  /** Events already reported. */
  reported: number;
  /** The call's line carries audio to a live agent (sandbox-lines.ts): its hang-up is read from the ledger. */
  live?: boolean;
  /** The live line's hang-up has been reported. */
  hungUp?: boolean;
}

/** How often a live line's hang-up is looked for, in call time. */
const LIVE_POLL_MS = 500;

export interface SandboxOptions {
  timeScale: number;
  /** Wall-clock ms the simulated network takes to accept a dial (an API round trip). */
  dialLatencyMs: number;
  /** Live lines for an agent that talks on them; without, the agent's conversation is scripted whole. */
  lines?: SandboxLines;
}

export class SandboxCarrier implements Carrier {
  readonly name = 'sandbox';
  readonly timeScale: number;
  readonly recordsCalls: boolean;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: SandboxOptions,
  ) {
    this.timeScale = options.timeScale;
    this.recordsCalls = options.lines !== undefined;
  }

  async dial(request: DialRequest, now: number): Promise<Dialled> {
    if (this.options.dialLatencyMs > 0) await new Promise((r) => setTimeout(r, this.options.dialLatencyMs));
    const scenario = sandboxScenario(request.to);
    const ref = `SB${randomUUID().replace(/-/g, '')}`;
    await recordSandboxDial(this.db, { callId: request.callId, ref, to: request.to, at: now });
    const state: SandboxState = { scenario, dialledAt: now, reported: 0, leaveMessage: request.leaveMessage, language: request.language };
    const answer = this.timeline(state).find((e) => e.kind === 'answered');
    if (this.options.lines && answer) {
      state.live = true;
      const dropAfterMs = scenario === 'drops' ? SANDBOX_DROP_AFTER_MS : undefined;
      this.options.lines.schedule(ref, request.callId, scenario, answer.at, dropAfterMs);
    }
    return { ref, state };
  }

  /** The scenario's line events in wall-clock time. */
  private timeline(s: SandboxState): LineEvent[] {
    const at = (callMs: number) => s.dialledAt + Math.round(callMs * this.timeScale);
    const ring = RING_MS[s.scenario];
    switch (s.scenario) {
      case 'silent':
        return [];
      case 'voicemail': {
        if (!s.leaveMessage) return [{ kind: 'ended', at: at(ring), outcome: 'voicemail', by: 'machine' }];
        const greeting = sandboxGreeting(s.language ?? 'en-US');
        return [{ kind: 'greeting_ended', at: at(ring + greeting.beepEndMs + BEEP_GAP_MS), pickedUpAt: at(ring), greeting }];
      }
      case 'no_answer':
      case 'declined':
        return [{ kind: 'ended', at: at(ring), outcome: s.scenario }];
      case 'never_answers':
        return [{ kind: 'ended', at: at(ring), outcome: 'no_answer' }];
      case 'failed':
        return [{ kind: 'ended', at: at(ring), outcome: 'failed', error: 'carrier_unreachable' }];
      case 'drops':
        return [
          { kind: 'answered', at: at(ring), by: 'human' },
          { kind: 'dropped', at: at(ring + SANDBOX_DROP_AFTER_MS) },
        ];
      default:
        return [{ kind: 'answered', at: at(ring), by: 'human' }];
    }
  }

  async check(ref: string, raw: unknown, now: number): Promise<LineNews> {
    const s = raw as SandboxState;
    const all = this.timeline(s);
    const pending = all.slice(s.reported);
    const events = pending.filter((e) => e.at <= now);
    const next = pending[events.length];
    const state: SandboxState = { ...s, reported: s.reported + events.length };
    if (!s.live || state.reported === 0 || s.hungUp) return { events, nextCheckAt: next ? next.at : null, state };
    // An answered live call: its line writes when either party hung up; until then it is looked at again soon.
    const hungUpAt = await readSandboxHungUp(this.db, ref);
    if (hungUpAt !== null && hungUpAt <= now) {
      const news = [...events, { kind: 'hung_up' as const, at: hungUpAt }].sort((a, b) => a.at - b.at);
      return { events: news, nextCheckAt: null, state: { ...state, hungUp: true } };
    }
    const poll = now + Math.max(1, Math.round(LIVE_POLL_MS * this.timeScale));
    return { events, nextCheckAt: Math.min(next?.at ?? Infinity, poll), state };
  }

  /** Releases the line: the ledger keeps when (the first hang-up of a line is the one that counts). */
  async hangUp(ref: string, _state: unknown, now: number): Promise<void> {
    this.options.lines?.takeDown(ref);
    await markSandboxHungUp(this.db, ref, now);
  }
}
