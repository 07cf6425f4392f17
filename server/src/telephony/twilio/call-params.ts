// What the carrier asks Twilio for when it dials: inline TwiML that connects the answered call to the service's
// media stream, the status, answering-machine and recording callbacks, and the recording itself.
import type { DialRequest } from '../carrier.js';
import { connectStreamTwiml } from './media-stream.js';
import type { CallParams } from './twilio-rest.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Text as XML character data or an attribute's value. */
export const xml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/**
 * The voicemail message as TwiML: said by Twilio's text-to-speech in the call's language (its default voice for
 * that language: the realtime model's voice is not in Twilio's catalogue), then the call is hung up.
 */
export function voicemailTwiml(text: string, language: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Say language="${xml(language)}">${xml(text)}</Say><Hangup/></Response>`;
}

/** The service's callback addresses for one call, under the public base URL. */
function twilioCallbackUrls(publicBaseUrl: string, callId: string) {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const id = encodeURIComponent(callId);
  return { status: `${base}/twilio/status/${id}`, amd: `${base}/twilio/amd/${id}`, recording: `${base}/twilio/recording/${id}` };
}

/**
 * Answering-machine detection runs asynchronously (AsyncAmd): the callee hears the agent at once instead of
 * several seconds of silence while Twilio listens, and the verdict arrives at its own callback. The carrier holds
 * the answer back until then, so a machine still ends the call as voicemail. A call that leaves a voicemail
 * message asks for DetectMessageEnd: a machine's verdict then comes when its greeting ends (machine_end_beep,
 * _silence or _other), which is when the message is to be spoken. A call placed with detection off asks for none:
 * no MachineDetection, and Twilio sends no verdict.
 */
export function createCallParams(request: DialRequest, publicBaseUrl: string, mediaSecret: string, timeLimitSec: number): CallParams {
  const urls = twilioCallbackUrls(publicBaseUrl, request.callId);
  return {
    To: request.to,
    From: request.callerId,
    Twiml: connectStreamTwiml(publicBaseUrl, mediaSecret, request.callId),
    StatusCallback: urls.status,
    StatusCallbackMethod: 'POST',
    StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    ...(request.machineDetection === false
      ? {}
      : { MachineDetection: request.leaveMessage ? 'DetectMessageEnd' : 'Enable', AsyncAmd: 'true', AsyncAmdStatusCallback: urls.amd, AsyncAmdStatusCallbackMethod: 'POST' }),
    // Twilio presses these once the call is answered (its own `w` and `W` pauses): a known extension.
    ...(request.sendDigits === undefined ? {} : { SendDigits: request.sendDigits }),
    // Twilio ends the call itself this long after it is placed, should every hang-up of ours fail.
    TimeLimit: String(timeLimitSec),
    Record: 'true',
    // Each party on its own channel; the v1 recording is fetched downmixed to one (RequestedChannels=1).
    RecordingChannels: 'dual',
    RecordingStatusCallback: urls.recording,
    RecordingStatusCallbackMethod: 'POST',
    RecordingStatusCallbackEvent: 'completed',
  };
}
