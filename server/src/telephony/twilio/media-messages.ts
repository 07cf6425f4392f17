// Twilio Media Streams messages, as the bridge reads and writes them. Whatever arrives is checked field by field:
// a malformed message is dropped (null), never thrown, so no peer can crash the process.
export type TwilioInbound =
  | { event: 'connected' }
  | { event: 'start'; streamSid: string; callSid: string; customParameters: Record<string, string>; encoding: string | null }
  /** `timestampMs`: the chunk's position in the stream, in ms from its start, when Twilio gives it. */
  | { event: 'media'; payload: string; timestampMs: number | null }
  | { event: 'mark'; name: string }
  /** A key the callee pressed (bidirectional streams only). */
  | { event: 'dtmf'; digit: string }
  | { event: 'stop' };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * A media message as Twilio writes it (these fields in this order, no spaces), read by this pattern rather than
 * parsed: 50 of them a second come on every call. A message in any other form is parsed; either way it reads the same.
 */
const MEDIA_AS_SENT = /^\{"event":"media","sequenceNumber":"\d+","media":\{"track":"inbound","chunk":"\d+","timestamp":"(\d+)","payload":"([A-Za-z0-9+/]*={0,2})"\},"streamSid":"[A-Za-z0-9]+"\}$/;

export function parseTwilioMessage(data: string): TwilioInbound | null {
  const asSent = MEDIA_AS_SENT.exec(data);
  if (asSent) return { event: 'media', payload: asSent[2]!, timestampMs: streamPosition(asSent[1]) };
  let msg: unknown;
  try {
    msg = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(msg)) return null;
  switch (msg.event) {
    case 'connected':
      return { event: 'connected' };
    case 'start': {
      const start = isObject(msg.start) ? msg.start : null;
      const streamSid = str(msg.streamSid) ?? str(start?.streamSid);
      const callSid = str(start?.callSid);
      if (!start || !streamSid || !callSid) return null;
      const params: Record<string, string> = {};
      if (isObject(start.customParameters)) {
        for (const [k, v] of Object.entries(start.customParameters)) if (typeof v === 'string') params[k] = v;
      }
      const format = isObject(start.mediaFormat) ? start.mediaFormat : null;
      return { event: 'start', streamSid, callSid, customParameters: params, encoding: str(format?.encoding) };
    }
    case 'media': {
      const media = isObject(msg.media) ? msg.media : null;
      const payload = str(media?.payload);
      if (!media || payload === null) return null;
      // Only the callee's side: a bidirectional stream carries the inbound track alone, but be strict.
      if (media.track !== undefined && media.track !== 'inbound' && media.track !== 'inbound_track') return null;
      return { event: 'media', payload, timestampMs: streamPosition(media.timestamp) };
    }
    case 'mark': {
      const name = str(isObject(msg.mark) ? msg.mark.name : null);
      return name === null ? null : { event: 'mark', name };
    }
    case 'dtmf': {
      const digit = str(isObject(msg.dtmf) ? msg.dtmf.digit : null);
      return digit === null || !/^[0-9*#A-D]$/i.test(digit) ? null : { event: 'dtmf', digit };
    }
    case 'stop':
      return { event: 'stop' };
    default:
      return null;
  }
}

/** A chunk's timestamp (ms from the stream's start, as a string or a number), or null when it gives none. */
function streamPosition(timestamp: unknown): number | null {
  const ts = Number(timestamp);
  return timestamp !== undefined && Number.isFinite(ts) && ts >= 0 ? ts : null;
}

// Written as text, each field by JSON.stringify: the agent's audio goes out 50 messages a second on every call.
export const twilioMedia = (streamSid: string, payload: string) => `{"event":"media","streamSid":${JSON.stringify(streamSid)},"media":{"payload":${JSON.stringify(payload)}}}`;
export const twilioMark = (streamSid: string, name: string) => JSON.stringify({ event: 'mark', streamSid, mark: { name } });
export const twilioClear = (streamSid: string) => JSON.stringify({ event: 'clear', streamSid });
