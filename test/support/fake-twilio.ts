// A fake of Twilio's REST API (2010-04-01) and of its callbacks, written from Twilio's documented wire protocol:
// Calls.json create (form-encoded, HTTP Basic auth, repeated StatusCallbackEvent), the call update that ends a
// call (Status=completed), recordings fetched as <RecordingUrl>.wav (RequestedChannels=1 downmixed, =2 each party on
// its own channel, neither: as the call asked with RecordingChannels), JSON errors { code, message, more_info,
// status }. The test drives the line: each callback is POSTed form-encoded to the URL the carrier gave, signed
// with X-Twilio-Signature exactly as Twilio signs it (the twilio package's getExpectedTwilioSignature).
//
// It behaves as Twilio does on bad days:
// - Status callbacks carry `SequenceNumber`, counted per call from 0 in the order Twilio sent them, and
//   `statuses()` can deliver them in any order (Twilio does not promise the order of its webhooks; the number is
//   how the receiver puts them back: https://www.twilio.com/docs/voice/api/call-resource#statuscallback).
// - Answering machine detection (https://www.twilio.com/docs/voice/answering-machine-detection) is decided, by
//   `amdFromGreeting()`, from what the callee says when they pick up, described as speech and silence, with the
//   AMD parameters the client sent on the Create Call request and Twilio's defaults for the rest:
//   MachineDetectionSpeechThreshold (2,400 ms: speech activity longer than this is a machine),
//   MachineDetectionSpeechEndThreshold (1,200 ms: the silence that ends speech activity),
//   MachineDetectionSilenceTimeout (5,000 ms: initial silence after which the verdict is `unknown`) and
//   MachineDetectionTimeout (30 s: no verdict by then is `unknown`). So a person with a long greeting (a business's
//   "Thanks for calling Tony's, this is Mark, how can I help you?", about 3 s) is `machine_start`, as on a real
//   line. With MachineDetection=DetectMessageEnd a machine's verdict waits for the greeting's end:
//   `machine_end_beep` at a beep, `machine_end_silence` at the speech-end silence, `machine_end_other` when the
//   greeting runs to the timeout; a person is still `human` at once. The callback's MachineDetectionDuration is
//   the verdict's time from the pick-up. (Twilio's engine also listens to the audio itself; the thresholds are the
//   part a client can see and tune, and what the fake models.)
// - A Create Call request's SendDigits outside Twilio's keys (0-9, A-D, *, #, w, W; at most 32) is refused 400 with
//   error 21206 (https://www.twilio.com/docs/errors/21206), and no call is made.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { decodePcm16Wav, encodeWav } from '../../server/src/recording/encode-wav.js';

export const FAKE_ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const FAKE_AUTH_TOKEN = 'fake-twilio-auth-token-0123456789';

export interface FakeCall {
  sid: string;
  /** The create request's parameters; repeated names keep every value. */
  params: Record<string, string[]>;
  /** Bodies of the updates the service sent (Status=completed to hang up). */
  updates: Record<string, string>[];
  status: string;
}

export interface CallbackResult {
  status: number;
  body: string;
}

/** An error answer: Twilio's status, code and message, and a Retry-After header when it sends one. */
export type RestFailure = { status: number; code: number; message: string; retryAfter?: string };

/** Twilio's throttling answer: the request was never processed and is safe to retry. */
export const TOO_MANY_REQUESTS: RestFailure = { status: 429, code: 20429, message: 'Too Many Requests' };

/** What the callee's end of the line does from the pick-up: speech and silence in ms, and a voicemail beep. */
export type GreetingPart = { speech: number } | { silence: number } | { beep: true };

export interface AmdSettings {
  mode: 'Enable' | 'DetectMessageEnd';
  timeoutMs: number;
  speechThresholdMs: number;
  speechEndThresholdMs: number;
  silenceTimeoutMs: number;
}

export interface AmdVerdict {
  answeredBy: 'human' | 'machine_start' | 'machine_end_beep' | 'machine_end_silence' | 'machine_end_other' | 'unknown';
  /** When Twilio decides, in ms from the pick-up (the callback's MachineDetectionDuration). */
  atMs: number;
}

/** The AMD settings of a Create Call request (Twilio's defaults where absent), or null without MachineDetection. */
export function amdSettings(params: Record<string, string[]>): AmdSettings | null {
  const mode = params.MachineDetection?.[0];
  if (mode !== 'Enable' && mode !== 'DetectMessageEnd') return null;
  const num = (name: string, fallback: number) => {
    const v = Number(params[name]?.[0]);
    return params[name] && Number.isFinite(v) ? v : fallback;
  };
  return {
    mode,
    timeoutMs: num('MachineDetectionTimeout', 30) * 1000,
    speechThresholdMs: num('MachineDetectionSpeechThreshold', 2400),
    speechEndThresholdMs: num('MachineDetectionSpeechEndThreshold', 1200),
    silenceTimeoutMs: num('MachineDetectionSilenceTimeout', 5000),
  };
}

/** The verdict Twilio's thresholds give for a greeting (after its last part the line is silent). */
export function decideAmd(settings: AmdSettings, greeting: GreetingPart[]): AmdVerdict {
  const { mode, timeoutMs, speechThresholdMs, speechEndThresholdMs, silenceTimeoutMs } = settings;
  let t = 0;
  /** Where the current speech activity began, and where its last speech ended. */
  let activityStart: number | null = null;
  let lastSpeechEnd = 0;
  /** A machine heard, its verdict waiting for the greeting's end (DetectMessageEnd). */
  let machine = false;
  const verdict = (answeredBy: AmdVerdict['answeredBy'], atMs: number): AmdVerdict =>
    atMs > timeoutMs ? { answeredBy: machine ? 'machine_end_other' : 'unknown', atMs: timeoutMs } : { answeredBy, atMs };
  const machineHeard = (atMs: number): AmdVerdict | null => {
    if (mode === 'Enable') return verdict('machine_start', atMs);
    if (atMs > timeoutMs) return verdict('unknown', atMs);
    machine = true;
    return null;
  };
  for (const part of [...greeting, { silence: Number.POSITIVE_INFINITY }]) {
    if ('beep' in part) {
      if (mode === 'DetectMessageEnd') return verdict('machine_end_beep', t);
      return verdict('machine_start', t);
    }
    if ('speech' in part) {
      activityStart ??= t;
      if (!machine && t + part.speech - activityStart >= speechThresholdMs) {
        const decided = machineHeard(activityStart + speechThresholdMs);
        if (decided) return decided;
      }
      t += part.speech;
      lastSpeechEnd = t;
      continue;
    }
    if (activityStart === null) {
      if (t + part.silence >= silenceTimeoutMs) return verdict('unknown', silenceTimeoutMs);
    } else if (part.silence >= speechEndThresholdMs) {
      return verdict(machine ? 'machine_end_silence' : 'human', lastSpeechEnd + speechEndThresholdMs);
    }
    t += part.silence;
  }
  return verdict('unknown', timeoutMs);
}

export class FakeTwilio {
  readonly calls: FakeCall[] = [];
  /** Every REST request, as `METHOD path`, with whether its Basic credentials were right. */
  readonly requests: { line: string; authorized: boolean }[] = [];
  /** The next create answers this error instead (a 4xx refusal or a 5xx outage). */
  failNextCreate: RestFailure | null = null;
  /** The next call update (a hang-up) answers this error instead. */
  failNextUpdate: RestFailure | null = null;
  /** The next creates, updates and recording downloads answer these errors instead, one each, in order (null: answered as usual). */
  createFailures: RestFailure[] = [];
  updateFailures: RestFailure[] = [];
  recordingFailures: (RestFailure | null)[] = [];
  /** As Twilio does, follow the hang-up of an answered call with its `completed` status callback. */
  completeOnHangUp = false;
  /** The account as GET /Accounts/{Sid}.json describes it. */
  account: { status: 'active' | 'suspended' | 'closed'; type: 'Trial' | 'Full' } = { status: 'active', type: 'Full' };
  /** Numbers the account owns (IncomingPhoneNumbers) and caller ids it verified (OutgoingCallerIds), E.164. */
  readonly ownedNumbers = new Set<string>(['+14155550100']);
  readonly verifiedCallerIds = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private hangUpWaiters: Array<() => void> = [];
  private readonly recordings = new Map<string, { call: FakeCall; mono: Buffer; dual: Buffer }>();
  /** Each call's next status callback SequenceNumber. */
  private readonly sequences = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    readonly accountSid: string,
    private readonly authToken: string,
  ) {}

  static async start(accountSid = FAKE_ACCOUNT_SID, authToken = FAKE_AUTH_TOKEN): Promise<FakeTwilio> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const fake = new FakeTwilio(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, accountSid, authToken);
    server.on('request', (req, res) => void fake.handle(req, res));
    return fake;
  }

  /** The env that points the service's Twilio carrier at this fake (with the live agent it requires; no model is reached unless a stream connects). */
  env(): Record<string, string> {
    return {
      SVC_CARRIER: 'twilio',
      TWILIO_ACCOUNT_SID: this.accountSid,
      TWILIO_AUTH_TOKEN: this.authToken,
      SVC_TWILIO_API_BASE_URL: this.baseUrl,
      SVC_AGENT: 'realtime',
      SVC_REALTIME_API_KEY: 'sk-realtime-unused-0123456789',
    };
  }

  call(sid: string): FakeCall {
    const call = this.calls.find((c) => c.sid === sid);
    if (!call) throw new Error(`no fake call ${sid}`);
    return call;
  }

  /** A status callback (CallStatus) to the call's StatusCallback, as Twilio sends it. */
  async status(sid: string, callStatus: string, extra: Record<string, string> = {}): Promise<CallbackResult> {
    const call = this.call(sid);
    call.status = callStatus;
    return this.send(first(call, 'StatusCallback'), this.statusParams(call, callStatus, extra));
  }

  /**
   * Status callbacks for each of `statuses`, numbered (SequenceNumber) in that order, delivered one after another
   * in `order` (indexes into `statuses`; as listed unless given). The call's status is the last one listed.
   */
  async statuses(sid: string, statuses: string[], order: number[] = statuses.map((_, i) => i)): Promise<CallbackResult[]> {
    const call = this.call(sid);
    const numbered = statuses.map((s) => this.statusParams(call, s, {}));
    if (statuses.length > 0) call.status = statuses[statuses.length - 1];
    const results: CallbackResult[] = [];
    for (const i of order) results.push(await this.send(first(call, 'StatusCallback'), numbered[i]));
    return results;
  }

  /** The asynchronous answering-machine verdict to AsyncAmdStatusCallback. */
  async amd(sid: string, answeredBy: string, durationMs = 2300): Promise<CallbackResult> {
    const call = this.call(sid);
    return this.send(first(call, 'AsyncAmdStatusCallback'), { AccountSid: this.accountSid, CallSid: sid, AnsweredBy: answeredBy, MachineDetectionDuration: String(Math.round(durationMs)) });
  }

  /**
   * The verdict Twilio's detection gives the callee's greeting, with the AMD settings the call was created with,
   * sent to AsyncAmdStatusCallback; null (and nothing sent) when the call was created without MachineDetection.
   */
  async amdFromGreeting(sid: string, greeting: GreetingPart[]): Promise<(AmdVerdict & { callback: CallbackResult }) | null> {
    const settings = amdSettings(this.call(sid).params);
    if (!settings) return null;
    const verdict = decideAmd(settings, greeting);
    return { ...verdict, callback: await this.amd(sid, verdict.answeredBy, verdict.atMs) };
  }

  /** The last recording callback sent, to send again as Twilio may. */
  lastRecordingCallback: { url: string; params: Record<string, string> } | null = null;

  /**
   * Stores the call's recording, its one-channel rendition `wav` and its two-channel one `dual` (by default `wav` on
   * both channels; Twilio keeps call recordings in two channels and downmixes on request), and tells
   * RecordingStatusCallback it is ready.
   */
  async recordingReady(sid: string, wav: Buffer, dual: Buffer = bothChannels(wav)): Promise<CallbackResult> {
    const call = this.call(sid);
    const recordingSid = `RE${randomBytes(16).toString('hex')}`;
    this.recordings.set(recordingSid, { call, mono: wav, dual });
    const url = first(call, 'RecordingStatusCallback');
    const params = {
      AccountSid: this.accountSid,
      CallSid: sid,
      RecordingSid: recordingSid,
      RecordingUrl: `${this.baseUrl}/2010-04-01/Accounts/${this.accountSid}/Recordings/${recordingSid}`,
      RecordingStatus: 'completed',
      RecordingDuration: '42',
      RecordingChannels: call.params.RecordingChannels?.[0] === 'dual' ? '2' : '1',
      RecordingSource: 'OutboundAPI',
      RecordingStartTime: new Date().toUTCString(),
    };
    this.lastRecordingCallback = { url, params };
    return this.send(url, params);
  }

  /** POSTs form params to `url`; signed with the auth token unless `signature` says otherwise (null: no header). */
  async send(url: string, params: Record<string, string>, signature?: string | null): Promise<CallbackResult> {
    const sig = signature === undefined ? getExpectedTwilioSignature(this.authToken, url, params) : signature;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'TwilioProxy/1.1' };
    if (sig !== null) headers['x-twilio-signature'] = sig;
    const res = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(params).toString() });
    return { status: res.status, body: await res.text() };
  }

  /** Resolves once the service has hung the call up (and, with completeOnHangUp, Twilio's callback is answered). */
  async hungUp(sid: string): Promise<void> {
    while (!this.call(sid).updates.some((u) => u.Status === 'completed')) await new Promise<void>((resolve) => this.hangUpWaiters.push(resolve));
    await Promise.all(this.inFlight);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private statusParams(call: FakeCall, callStatus: string, extra: Record<string, string>): Record<string, string> {
    const sequence = this.sequences.get(call.sid) ?? 0;
    this.sequences.set(call.sid, sequence + 1);
    return {
      ...this.common(call),
      CallStatus: callStatus,
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(sequence),
      Timestamp: new Date().toUTCString(),
      ...(callStatus === 'completed' ? { CallDuration: '42', Duration: '1' } : {}),
      ...extra,
    };
  }

  private common(call: FakeCall): Record<string, string> {
    return { AccountSid: this.accountSid, CallSid: call.sid, From: first(call, 'From'), To: first(call, 'To'), Direction: 'outbound-api', ApiVersion: '2010-04-01' };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const authorized = req.headers.authorization === `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    this.requests.push({ line: `${req.method} ${url.pathname}`, authorized });
    const form = new URLSearchParams(await readBody(req));
    const root = `/2010-04-01/Accounts/${this.accountSid}`;
    if (!authorized) return error(res, { status: 401, code: 20003, message: 'Authenticate' });
    if (req.method === 'POST' && url.pathname === `${root}/Calls.json`) return this.create(form, res);
    if (req.method === 'GET' && url.pathname === `${root}.json`) {
      return json(res, 200, { sid: this.accountSid, friendly_name: 'My first Twilio account', status: this.account.status, type: this.account.type, uri: `${root}.json` });
    }
    const numbers = req.method === 'GET' && /^\/(IncomingPhoneNumbers|OutgoingCallerIds)\.json$/.exec(url.pathname.slice(root.length));
    if (numbers) {
      // A list filtered by PhoneNumber, paged as Twilio pages every list; an unfiltered read lists them all.
      const wanted = url.searchParams.get('PhoneNumber');
      const owned = numbers[1] === 'IncomingPhoneNumbers';
      const found = [...(owned ? this.ownedNumbers : this.verifiedCallerIds)].filter((n) => wanted === null || n === wanted);
      const items = found.map((n, i) => ({ sid: `${owned ? 'PN' : 'PN'}${String(i).padStart(32, '0')}`, account_sid: this.accountSid, phone_number: n, friendly_name: n }));
      return json(res, 200, {
        [owned ? 'incoming_phone_numbers' : 'outgoing_caller_ids']: items,
        page: 0,
        page_size: 50,
        start: 0,
        end: Math.max(0, items.length - 1),
        uri: url.pathname + url.search,
        next_page_uri: null,
        previous_page_uri: null,
        first_page_uri: url.pathname + url.search,
      });
    }
    const update = new RegExp(`^${root}/Calls/(CA[0-9a-f]{32})\\.json$`).exec(url.pathname);
    if (req.method === 'POST' && update) {
      const call = this.calls.find((c) => c.sid === update[1]);
      if (!call) return error(res, { status: 404, code: 20404, message: `The requested resource ${url.pathname} was not found` });
      const failure = this.failNextUpdate ?? this.updateFailures.shift();
      this.failNextUpdate = null;
      if (failure) return error(res, failure);
      call.updates.push(Object.fromEntries(form));
      const wasAnswered = call.status === 'in-progress';
      if (form.get('Status') === 'completed') call.status = 'completed';
      json(res, 200, this.resource(call));
      if (this.completeOnHangUp && wasAnswered && form.get('Status') === 'completed') {
        const callback: Promise<unknown> = this.status(call.sid, 'completed').finally(() => this.inFlight.delete(callback));
        this.inFlight.add(callback);
      }
      for (const wake of this.hangUpWaiters.splice(0)) wake();
      return;
    }
    const recording = new RegExp(`^${root}/Recordings/(RE[0-9a-f]{32})\\.wav$`).exec(url.pathname);
    const stored = recording && req.method === 'GET' ? this.recordings.get(recording[1]) : undefined;
    const channels = url.searchParams.get('RequestedChannels') ?? (stored?.call.params.RecordingChannels?.[0] === 'dual' ? '2' : '1');
    const wav = stored && (channels === '2' ? stored.dual : stored.mono);
    const recordingFailure = wav && this.recordingFailures.shift();
    if (recordingFailure) return error(res, recordingFailure);
    if (wav) {
      res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': wav.length });
      res.end(wav);
      return;
    }
    error(res, { status: 404, code: 20404, message: `The requested resource ${url.pathname} was not found` });
  }

  private create(form: URLSearchParams, res: ServerResponse): void {
    const failure = this.failNextCreate ?? this.createFailures.shift();
    this.failNextCreate = null;
    if (failure) return error(res, failure);
    const params: Record<string, string[]> = {};
    for (const [k, v] of form) (params[k] ??= []).push(v);
    if (!params.To || !params.From) return error(res, { status: 400, code: 21201, message: 'No called number is specified' });
    if (!params.Url && !params.Twiml) return error(res, { status: 400, code: 21205, message: 'Url parameter is required' });
    // SendDigits takes 0-9, A-D, * and #, w (half a second) and W (a second), at most 32 (error 21206).
    const digits = params.SendDigits;
    if (digits && (digits.length > 1 || !/^[0-9A-D*#wW]{1,32}$/.test(digits[0]!))) return error(res, { status: 400, code: 21206, message: 'Invalid SendDigits' });
    const call: FakeCall = { sid: `CA${randomBytes(16).toString('hex')}`, params, updates: [], status: 'queued' };
    this.calls.push(call);
    json(res, 201, this.resource(call));
  }

  // The Call resource's JSON, with the fields Twilio returns (snake_case).
  private resource(call: FakeCall) {
    return {
      sid: call.sid,
      account_sid: this.accountSid,
      api_version: '2010-04-01',
      to: first(call, 'To'),
      to_formatted: first(call, 'To'),
      from: first(call, 'From'),
      from_formatted: first(call, 'From'),
      status: call.status,
      direction: 'outbound-api',
      answered_by: null,
      parent_call_sid: null,
      phone_number_sid: null,
      price: null,
      price_unit: 'USD',
      duration: null,
      start_time: null,
      end_time: null,
      date_created: new Date().toUTCString(),
      date_updated: new Date().toUTCString(),
      uri: `/2010-04-01/Accounts/${this.accountSid}/Calls/${call.sid}.json`,
      subresource_uris: { recordings: `/2010-04-01/Accounts/${this.accountSid}/Calls/${call.sid}/Recordings.json` },
    };
  }
}

function first(call: FakeCall, name: string): string {
  const v = call.params[name]?.[0];
  if (v === undefined) throw new Error(`the call was created without ${name}`);
  return v;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, f: RestFailure): void {
  if (f.retryAfter !== undefined) res.setHeader('retry-after', f.retryAfter);
  json(res, f.status, { code: f.code, message: f.message, more_info: `https://www.twilio.com/docs/errors/${f.code}`, status: f.status });
}

/** A mono PCM WAV's samples on both channels of a two-channel one. */
function bothChannels(mono: Buffer): Buffer {
  const { sampleRate, samples } = decodePcm16Wav(mono);
  const interleaved = new Int16Array(samples.length * 2);
  for (let i = 0; i < samples.length; i++) interleaved.set([samples[i]!, samples[i]!], i * 2);
  return encodeWav(interleaved, sampleRate, 2);
}
