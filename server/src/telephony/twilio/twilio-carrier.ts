// The Twilio carrier (SVC_CARRIER=twilio): dials through the REST Calls resource, learns what happens on the
// line from Twilio's signed callbacks (stored in the carrier inbox by the /twilio routes), hangs up through the
// REST API. Twilio records the call; the recording callback stores it on the call, so the engine renders none.
//
// Answering-machine detection is asynchronous, so the pick-up is held back until the verdict: a human (or
// "unknown") lets the answer through, dated at the pick-up; a confirmed machine or a fax ends the call as voicemail
// and the carrier hangs the line up. Should no verdict come, the answer goes through AMD_WAIT_MS after the pick-up.
// machine_start is a suspicion only (a person whose greeting is long gets it too): the answer stays held until the
// line confirms a machine (the agent heard a voicemail greeting) or a person (the callee answered the agent), read
// from the store (machine-screen.ts); with neither by AMD_WAIT_MS after the pick-up it is taken for a machine.
// A call dialled with detection off has no verdict to wait for: its pick-up is the answer.
// Status callbacks may arrive out of the order Twilio fired them: they are read in SequenceNumber order
// (line-events.ts), and a completed read before any pick-up still completes the call.
// A call that leaves a voicemail message instead hears of the machine when its greeting ends (greeting_ended);
// the carrier then has Twilio say the message and hang up (leaveMessage).
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { CarrierRefused, CarrierThrottled, type AnsweredBy, type Carrier, type DialRequest, type Dialled, type LineEvent, type LineNews } from '../carrier.js';
import { createCallParams, voicemailTwiml } from './call-params.js';
import type { Logger } from 'pino';
import type { Consultation, ConsultRequest } from '../live-line.js';
import { coldTransferTwiml, conferenceTwiml, consultOnTwilio, HANDED_OVER_TIME_LIMIT_SEC, handoverUrls, type HandoverCall } from './handover.js';
import { screenEvidence } from '../machine-screen.js';
import { readTwilioEvents } from './line-events.js';
import { type TwilioRest, TwilioRestError } from './twilio-rest.js';

/** Twilio's AMD gives up after 30 s by default (MachineDetectionTimeout) and says "unknown"; a little past that. */
export const AMD_WAIT_MS = 35_000;
/** How often the line's evidence is read while a suspected machine holds the answer. */
export const SCREEN_POLL_MS = 1000;

const E164 = /^\+[1-9][0-9]{1,14}$/;

/** Resumable state on the call row: how many inbox events were read and what they said so far. */
export interface TwilioLineState {
  seen: number;
  pickedUpAt?: number;
  humanAt?: number;
  machineAt?: number;
  /** The answering-machine verdict: who picked up. */
  by?: AnsweredBy;
  /** The line ended: Twilio's completed (`dropped` false) or a failure after the pick-up (`dropped` true). */
  downAt?: number;
  dropped?: boolean;
  answered?: boolean;
  done?: boolean;
  /** The call leaves a voicemail message (dialled with DetectMessageEnd). */
  leaveMessage?: boolean;
  /** A machine's greeting ended: the line stays up for the message. */
  greeted?: boolean;
  greetingEndedAt?: number;
  /** machine_start: when it came, and its MachineDetectionDuration (ms from the pick-up). */
  suspectedAt?: number;
  suspectedMs?: number;
  /** Dialled with answering-machine detection off: the pick-up is the answer. */
  noDetection?: boolean;
}

export interface TwilioCarrierOptions {
  rest: TwilioRest;
  publicBaseUrl: string;
  /** Signs the media stream's per-call token (the bridge checks it with the same secret). */
  mediaSecret: string;
  /** The TimeLimit a call is created with: Twilio ends it there whatever happens to our hang-ups. */
  timeLimitSec: number;
  /** Ends a line, durably (twilio-jobs.ts). */
  hangUp(sid: string): Promise<void>;
}

export class TwilioCarrier implements Carrier {
  readonly name = 'twilio';
  readonly timeScale = 1;
  readonly recordsCalls = true;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: TwilioCarrierOptions,
  ) {}

  async dial(request: DialRequest): Promise<Dialled> {
    try {
      const params = createCallParams(request, this.options.publicBaseUrl, this.options.mediaSecret, this.options.timeLimitSec);
      const call = await this.options.rest.createCall(params);
      const state: TwilioLineState = { seen: 0, ...(request.leaveMessage ? { leaveMessage: true } : {}), ...(request.machineDetection === false ? { noDetection: true } : {}) };
      return { ref: call.sid, state };
    } catch (err) {
      // Throttled (429): Twilio never processed the request, so dialling again later places it once.
      if (err instanceof TwilioRestError && err.status === 429) throw new CarrierThrottled(err.retryAfterMs, err.message);
      // Twilio refused the request itself (bad number, unverified caller id, …): nothing was placed, never redial.
      if (err instanceof TwilioRestError && err.status < 500) throw new CarrierRefused('carrier_rejected', err.message);
      throw err;
    }
  }

  async check(ref: string, state: unknown, now: number): Promise<LineNews> {
    const s: TwilioLineState = { ...(state as TwilioLineState) };
    const news = await readTwilioEvents(this.db, ref, s.seen);
    s.seen += news.length;
    const events: LineEvent[] = [];
    for (const { source, event, greetingEnded, machineStart, verdictMs, callDurationSec } of news) {
      if (s.done) break;
      if (source === 'amd' && machineStart) {
        s.suspectedAt ??= event.at;
        s.suspectedMs ??= verdictMs ?? 0;
      } else if (source === 'amd') {
        s.by ??= event.kind === 'answered' || event.kind === 'ended' ? event.by : undefined;
        if (event.kind === 'ended') s.machineAt ??= event.at;
        else s.humanAt ??= event.at;
        if (greetingEnded && s.leaveMessage) s.greetingEndedAt ??= event.at;
      } else if (event.kind === 'answered') {
        s.pickedUpAt ??= event.at;
      } else if (s.pickedUpAt === undefined && event.kind !== 'hung_up') {
        events.push(event); // busy, no-answer, failed, canceled: the call never connected
        s.done = true;
      } else {
        // Twilio's completed means answered and ended normally. One that overtook its in-progress (none read yet, or
        // one that arrived after it, so its arrival is not its time) dates the pick-up by its CallDuration.
        if (s.pickedUpAt === undefined || s.pickedUpAt > event.at) s.pickedUpAt = event.at - (callDurationSec ?? 0) * 1000;
        s.downAt ??= event.at;
        s.dropped ??= event.kind !== 'hung_up';
      }
    }
    if (!s.done && !s.answered && !s.greeted && s.pickedUpAt !== undefined) {
      if (s.greetingEndedAt !== undefined && s.by === 'machine') {
        // The machine's greeting is over: the line stays up for the message (the engine has it said and hangs up).
        events.push({ kind: 'greeting_ended', at: Math.max(s.greetingEndedAt, s.pickedUpAt), pickedUpAt: s.pickedUpAt });
        s.greeted = true;
      } else if (s.machineAt !== undefined) {
        if (s.downAt === undefined) await this.options.hangUp(ref);
        events.push({ kind: 'ended', at: Math.max(s.machineAt, s.pickedUpAt), outcome: 'voicemail', by: s.by ?? 'machine' });
        s.done = true;
      } else if (s.suspectedAt !== undefined && s.humanAt === undefined) {
        await this.screen(ref, s, now, events);
      } else if (s.noDetection) {
        events.push({ kind: 'answered', at: s.pickedUpAt, by: 'unknown' });
        s.answered = true;
      } else if (s.humanAt !== undefined || s.downAt !== undefined || now >= s.pickedUpAt + AMD_WAIT_MS) {
        // No verdict by then (or the line ended first): Twilio could not tell who answered.
        events.push({ kind: 'answered', at: s.pickedUpAt, by: s.humanAt !== undefined ? (s.by ?? 'unknown') : 'unknown' });
        s.answered = true;
      }
    }
    if (s.answered && !s.done && s.downAt !== undefined) {
      events.push({ kind: s.dropped ? 'dropped' : 'hung_up', at: s.downAt });
      s.done = true;
    }
    const waiting = !s.done && !s.answered && !s.greeted && s.pickedUpAt !== undefined;
    const nextCheckAt = !waiting ? null : s.suspectedAt !== undefined ? Math.min(now + SCREEN_POLL_MS, s.pickedUpAt! + AMD_WAIT_MS) : s.pickedUpAt! + AMD_WAIT_MS;
    return { events, nextCheckAt, state: s };
  }

  /**
   * A suspected machine (machine_start): the callee who answered the agent is a person, whatever the verdict said;
   * a voicemail greeting the agent heard confirms the machine. Neither by AMD_WAIT_MS after the pick-up (the agent
   * has had the floor since the greeting ended and nobody answered it), or the line ended first: a machine.
   */
  private async screen(ref: string, s: TwilioLineState, now: number, events: LineEvent[]): Promise<void> {
    const pickedUpAt = s.pickedUpAt!;
    const evidence = await screenEvidence(this.db, ref, s.suspectedMs ?? 0);
    if (evidence.calleeReplied && evidence.voicemailDetectedAt === null) {
      events.push({ kind: 'answered', at: pickedUpAt, by: 'human' });
      s.answered = true;
      return;
    }
    const confirmedAt = evidence.voicemailDetectedAt ?? s.downAt ?? (now >= pickedUpAt + AMD_WAIT_MS ? now : null);
    if (confirmedAt === null) return;
    if (s.downAt === undefined) await this.options.hangUp(ref);
    events.push({ kind: 'ended', at: Math.max(s.suspectedAt!, pickedUpAt, Math.min(confirmedAt, now)), outcome: 'voicemail', by: 'machine' });
    s.done = true;
  }

  async hangUp(ref: string): Promise<void> {
    await this.options.hangUp(ref);
  }

  /** Has Twilio say the message on the live call, then hang up (TwiML Say and Hangup replace the media stream). */
  async leaveMessage(ref: string, _state: unknown, message: { text: string; language: string }): Promise<void> {
    await this.options.rest.updateTwiml(ref, voicemailTwiml(message.text, message.language));
  }

  /** Hands the live call over to `to` (E.164): a <Dial> replaces the media stream, so the agent's part ends. */
  async transfer(call: HandoverCall, to: string, logger: Logger): Promise<void> {
    if (!E164.test(to)) throw new RangeError('a transfer goes to an E.164 number');
    await this.handOver(call, coldTransferTwiml(to, call.callerId, handoverUrls(this.options.publicBaseUrl, call.callId).handover), logger);
  }

  /** Calls the person of a warm transfer while the callee holds; joining them moves the call into its conference. */
  consult(call: HandoverCall, request: ConsultRequest, logger: Logger, pollMs?: number): Consultation {
    const { rest, publicBaseUrl } = this.options;
    return consultOnTwilio(call, request, { db: this.db, rest, publicBaseUrl, logger, pollMs, join: () => this.handOver(call, conferenceTwiml(call.callId), logger) });
  }

  /**
   * The call leaves the agent: its recording stops (a refusal, logged, leaves it running), then `twiml` replaces
   * the media stream, with Twilio's own time limit in place of the agent's.
   */
  private async handOver(call: HandoverCall, twiml: string, logger: Logger): Promise<void> {
    const { rest } = this.options;
    await rest.stopRecording(call.callSid).catch((err: Error) => logger.warn({ callId: call.callId, err: err.message }, 'could not stop the recording at the handover'));
    await rest.updateCall(call.callSid, { Twiml: twiml, TimeLimit: String(HANDED_OVER_TIME_LIMIT_SEC) });
  }
}
