// The slice of Twilio's REST API (2010-04-01) the carrier uses: create a call, update or end it, stop its recording,
// fetch a recording. A small
// fetch client rather than the `twilio` package's, whose REST base URL cannot be pointed at a local fake.
// Errors carry Twilio's status, code and message, never the credentials.
import { parseRetryAfter } from '../../jobs/backoff.js';

export interface TwilioCredentials {
  accountSid: string;
  authToken: string;
}

export interface TwilioRestOptions extends TwilioCredentials {
  /** https://api.twilio.com, or a fake's address in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Deadline of one request. */
  timeoutMs?: number;
}

/**
 * Twilio answered with an error status; `status` < 500 means it refused the request itself, except 429 (code
 * 20429): Twilio is throttling, the request was never processed and is always safe to retry (after `retryAfterMs`
 * when Twilio said).
 */
export class TwilioRestError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'TwilioRestError';
  }
}

export interface CreatedCall {
  sid: string;
  status: string;
}

export type CallParams = Record<string, string | string[]>;

const DEFAULT_TIMEOUT_MS = 15_000;

export class TwilioRest {
  private readonly fetch: typeof fetch;
  private readonly authorization: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: TwilioRestOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.authorization = basicAuth(options);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** POST Calls.json; repeated parameters (StatusCallbackEvent) are sent once per value, as Twilio expects. */
  async createCall(params: CallParams): Promise<CreatedCall> {
    const body = await this.post(`Calls.json`, params);
    const sid = (body as { sid?: unknown }).sid;
    if (typeof sid !== 'string' || !/^CA[0-9a-f]{32}$/i.test(sid)) throw new Error('Twilio created a call without a valid sid');
    return { sid, status: String((body as { status?: unknown }).status ?? '') };
  }

  /** Ends the call whatever its state (Status=completed; Twilio cancels a call that is still ringing). */
  async endCall(sid: string): Promise<void> {
    await this.post(`Calls/${encodeURIComponent(sid)}.json`, { Status: 'completed' });
  }

  /** Replaces what the live call is doing with these TwiML instructions (the Call resource's Twiml parameter). */
  async updateTwiml(sid: string, twiml: string): Promise<void> {
    await this.updateCall(sid, { Twiml: twiml });
  }

  /** Updates the live call (Twiml, TimeLimit, …); Twilio refuses one that is no longer in progress (a 4xx). */
  async updateCall(sid: string, params: CallParams): Promise<void> {
    await this.post(`Calls/${encodeURIComponent(sid)}.json`, params);
  }

  /** Stops the call's recording in progress (Twilio.CURRENT names it); a 4xx when none is. */
  async stopRecording(sid: string): Promise<void> {
    await this.post(`Calls/${encodeURIComponent(sid)}/Recordings/Twilio.CURRENT.json`, { Status: 'stopped' });
  }

  /** True when `url` is on this API, so sending it the account's credentials is safe. */
  isApiUrl(url: string): boolean {
    const api = new URL(this.options.baseUrl);
    return URL.canParse(url) && new URL(url).origin === api.origin;
  }

  /**
   * The recording as WAV: the recording's URL with `.wav` appended, fetched with the account's credentials, in one
   * channel (both parties mixed) or two (each party apart): Twilio's RequestedChannels.
   */
  async fetchRecording(recordingUrl: string, channels: 1 | 2): Promise<Buffer> {
    if (!this.isApiUrl(recordingUrl)) throw new Error('the recording URL is not on the configured Twilio API');
    const res = await this.fetch(`${recordingUrl}.wav?RequestedChannels=${channels}`, { headers: { Authorization: this.authorization }, signal: AbortSignal.timeout(this.timeoutMs) });
    if (!res.ok) throw await restError(res);
    return Buffer.from(await res.arrayBuffer());
  }

  private async post(path: string, params: CallParams): Promise<unknown> {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(this.options.accountSid)}/${path}`;
    const res = await this.fetch(url, {
      method: 'POST',
      headers: { Authorization: this.authorization, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw await restError(res);
    return res.json();
  }
}

function basicAuth({ accountSid, authToken }: TwilioCredentials): string {
  return `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
}

// Twilio's error body is { code, message, more_info, status }; its message names no credential.
async function restError(res: Response): Promise<TwilioRestError> {
  const body = (await res.json().catch(() => ({}))) as { code?: unknown; message?: unknown };
  const code = typeof body.code === 'number' ? body.code : null;
  const detail = typeof body.message === 'string' ? `: ${body.message.slice(0, 300)}` : '';
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), Date.now());
  return new TwilioRestError(res.status, code, `Twilio answered ${res.status}${code === null ? '' : ` (code ${code})`}${detail}`, retryAfterMs);
}

/** True for a failure worth trying again: Twilio throttling (429), an outage (5xx), or no answer at all. */
export function isRetryable(err: unknown): boolean {
  return !(err instanceof TwilioRestError) || err.status === 429 || err.status >= 500;
}

/** The REST client for the configured account (SVC_CARRIER=twilio, so the credentials are set). */
export function configuredTwilioRest(config: { twilioAccountSid: string | null; twilioAuthToken: string | null; twilioApiBaseUrl: string }): TwilioRest {
  return new TwilioRest({ accountSid: config.twilioAccountSid!, authToken: config.twilioAuthToken!, baseUrl: config.twilioApiBaseUrl });
}
