// Where Twilio connects a call's media stream, and the per-call token that proves the stream is the one the
// carrier asked for. Twilio's Stream URL may not carry a query string, so the token travels as a <Parameter>
// and arrives in the stream's `start` message (customParameters); the bridge checks it there.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const MEDIA_STREAM_PATH = '/twilio/media/';
/** The <Parameter> name that carries the token. */
export const MEDIA_TOKEN_PARAMETER = 'token';

/** `wss://host/twilio/media/<callId>` (ws:// when the public base URL is plain http, as in local tests). */
export function mediaStreamUrl(publicBaseUrl: string, callId: string): string {
  const url = new URL(publicBaseUrl.replace(/\/+$/, '') + MEDIA_STREAM_PATH + encodeURIComponent(callId));
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  return url.toString();
}

/** HMAC of the call id under a secret the carrier (which writes the TwiML) and the bridge share. */
export function mediaStreamToken(secret: string, callId: string): string {
  return createHmac('sha256', secret).update(`svc-media-stream:${callId}`).digest('base64url');
}

export function validMediaStreamToken(secret: string, callId: string, token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const expected = Buffer.from(mediaStreamToken(secret, callId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The TwiML that connects the answered call to the bridge: a bidirectional stream, blocking until it ends. */
export function connectStreamTwiml(publicBaseUrl: string, secret: string, callId: string): string {
  const url = escapeXml(mediaStreamUrl(publicBaseUrl, callId));
  const token = escapeXml(mediaStreamToken(secret, callId));
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="${url}"><Parameter name="${MEDIA_TOKEN_PARAMETER}" value="${token}"/></Stream></Connect></Response>`;
}
