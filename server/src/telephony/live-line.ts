// The live line: what an agent sees of an answered call, whichever carrier carries it. Audio goes both ways as
// 8 kHz mu-law, base64 in each payload (a phone line's own encoding, so nothing is transcoded on the way). The
// line tells when the audio before a mark has played, drops what has not played yet when asked (the callee is
// talking over the agent), carries key presses both ways, and is hung up or handed over to a person by the agent:
// at once (transfer), or after a call to the person, who hears the agent's briefing and takes the call (consult).
//
// A carrier's adapter (twilio/twilio-line.ts over Twilio's media stream) implements LiveLine and calls the
// LineListener the agent gives it when it joins; an agent (voice-agent/) implements LineAgent. Neither side knows
// the other's kind.
import type { Logger } from 'pino';
import type { LineBrief } from '../conversation/conversation.js';

/**
 * Why an agent's session on a line ended: the agent hung up (after its goodbye, on a line silent too long, or after
 * waiting on hold past the call's budget), lost its model, handed the call over to a person and left, or the line
 * ended under it.
 */
export type LineEnd = 'end_call' | 'silence' | 'hold_timeout' | 'agent_lost' | 'transferred' | 'line_ended';
/** The endings where the agent is the one that hangs up. */
export type AgentHangUp = Exclude<LineEnd, 'line_ended' | 'transferred'>;

/** How long the number a transfer reaches is let ring before nobody is taken to answer. */
export const TRANSFER_RING_MS = 20_000;

/** A warm transfer's call to the person: the number, and the briefing the carrier reads them in the call's language. */
export interface ConsultRequest {
  to: string;
  briefing: string;
  /** BCP-47, the call's. */
  language: string;
}

/**
 * How the person's call went: they took it (heard the briefing and pressed 1), or nobody answered, they declined
 * (hung up, busy, pressed nothing), or the call could not be made.
 */
export type ConsultOutcome = 'accepted' | 'no_answer' | 'declined' | 'failed';

/** A warm transfer's second line, to the person, while the callee holds on the first. */
export interface Consultation {
  readonly outcome: Promise<ConsultOutcome>;
  /** Whether the person who took the call is still on their line. */
  stillThere(): Promise<boolean>;
  /** Joins the callee to the person and leaves the call: the agent's part of it ends. */
  join(): Promise<void>;
  /** Hangs up the person's line: the transfer is not going ahead. */
  release(): Promise<void>;
}

/** Who the carrier says answered: a person (or it could not tell), or a machine whose greeting has ended. */
export type AnswerVerdict = 'person' | 'machine';

/** The agent's handle on the line. */
export interface LiveLine {
  /**
   * Present while the carrier is still deciding who answered and the agent must hold its words until it has (a
   * voicemail message waits for the greeting's end): resolves with the verdict. Absent when the agent may speak.
   */
  readonly verdict?: Promise<AnswerVerdict>;
  /** Plays base64 8 kHz mu-law to the callee, after whatever was played before it. */
  play(payload: string): void;
  /** Asks to be told (LineListener.marked) once everything played before this mark has been heard. */
  mark(name: string): void;
  /** Drops the audio played but not heard yet. */
  clear(): void;
  /**
   * Sends key presses to the callee (0-9, *, #, A-D; `w` a 0.5 s pause, `W` a 1 s one), after the audio played
   * before them; a mark after them says when they have played (tones/dtmf-tones.ts gives their length).
   */
  sendDigits(digits: string): void;
  /** Ends the call on the carrier. */
  hangUp(reason: AgentHangUp): Promise<void>;
  /** Hands the callee over to another number (E.164), dialled from the call's caller id; the agent's part of the call ends. */
  transfer(to: string): Promise<void>;
  /** Calls a person on a second line, from the call's caller id, while the callee holds on this one (a warm transfer). */
  consult(request: ConsultRequest): Consultation;
}

/** What the line tells the agent; the carrier's adapter calls it. */
export interface LineListener {
  /** The callee's audio (base64 8 kHz mu-law) at its position in the stream, in ms from its start, when known. */
  heard(payload: string, timestampMs: number | null): void;
  /** Everything played before the mark has been heard. */
  marked(name: string): void;
  /** The callee pressed a key. */
  dtmf(digit: string): void;
  /** The line ended (the callee hung up, or the carrier did); resolves as the session does. */
  ended(): Promise<LineEnd>;
}

/** An agent's session on one line. */
export interface LineSession extends LineListener {
  /** Resolves once the session is over and every turn it heard is written. */
  readonly done: Promise<LineEnd>;
}

/** An agent that talks on live lines: joins each answered call's line as it comes. */
export interface LineAgent {
  join(brief: LineBrief, line: LiveLine, logger: Logger): LineSession;
  /** The call is ringing: the agent may get ready for its line now, so the answer does not wait for it. */
  prepare?(callId: string): Promise<void>;
  /** The call ended with no line to join (no answer, a machine): what prepare readied is let go. */
  release?(callId: string): void;
  /** Lets go of everything readied (the process is shutting down). */
  close?(): void;
}

export const joinsLines = (agent: object): agent is LineAgent => typeof (agent as Partial<LineAgent>).join === 'function';
