// Twilio's bidirectional media stream as a live line: the port's calls become the stream's outbound messages
// (media, mark, clear), and the stream's inbound messages become the listener's calls. The stream carries no key
// presses outbound, so digits are played as their tones (in-band DTMF); a transfer, the call to a transfer's person
// and a hang-up go over REST.
import { dtmfTones } from '../../tones/dtmf-tones.js';
import type { AgentHangUp, AnswerVerdict, Consultation, ConsultRequest, LineListener, LiveLine } from '../live-line.js';
import { twilioClear, twilioMark, twilioMedia, type TwilioInbound } from './media-messages.js';

/** 20 ms of 8 kHz mu-law: the frame Twilio itself streams in. */
const FRAME_BYTES = 160;

export interface TwilioLineOptions {
  streamSid: string;
  /** Sends one message on the stream's socket (dropped once it is closed). */
  send(data: string): void;
  /** Ends the call over REST. */
  hangUp(reason: AgentHangUp): Promise<void>;
  /** Replaces the call's TwiML with a <Dial> over REST. */
  transfer(to: string): Promise<void>;
  /** Calls a warm transfer's person over REST (handover.ts). */
  consult(request: ConsultRequest): Consultation;
  /** The answering-machine verdict, on a call whose agent waits for it (amd-verdict.ts). */
  verdict?: Promise<AnswerVerdict>;
}

export class TwilioLine implements LiveLine {
  readonly verdict?: Promise<AnswerVerdict>;

  constructor(private readonly options: TwilioLineOptions) {
    if (options.verdict) this.verdict = options.verdict;
  }

  play(payload: string): void {
    this.options.send(twilioMedia(this.options.streamSid, payload));
  }

  mark(name: string): void {
    this.options.send(twilioMark(this.options.streamSid, name));
  }

  clear(): void {
    this.options.send(twilioClear(this.options.streamSid));
  }

  sendDigits(digits: string): void {
    const tones = dtmfTones(digits);
    for (let at = 0; at < tones.length; at += FRAME_BYTES) this.play(tones.subarray(at, at + FRAME_BYTES).toString('base64'));
  }

  hangUp(reason: AgentHangUp): Promise<void> {
    return this.options.hangUp(reason);
  }

  transfer(to: string): Promise<void> {
    return this.options.transfer(to);
  }

  consult(request: ConsultRequest): Consultation {
    return this.options.consult(request);
  }
}

/** Hands one inbound message of a started stream to the agent's listener. */
export function deliver(msg: TwilioInbound, listener: LineListener): void {
  switch (msg.event) {
    case 'media':
      return listener.heard(msg.payload, msg.timestampMs);
    case 'mark':
      return listener.marked(msg.name);
    case 'dtmf':
      return listener.dtmf(msg.digit);
    case 'stop':
      void listener.ended();
      return;
  }
}
