// `svc doctor`: checks a configuration against the services it names without placing a call, and says for each
// check what is wrong and how to fix it. Each check asks the real service the least that proves the setting:
// Twilio an authenticated read of the account and a lookup of each caller number; the public address svc's own
// /healthz over https (what Twilio will reach); the realtime model a session opened, configured in mu-law both
// ways and closed; the recogniser a stream opened and closed through the same adapter a call uses; a chat model
// or OpenAI voice its model list; an ElevenLabs voice its voice record. Nothing is spoken, dialled or billed.
//
// Keys travel only in headers, and whatever a vendor answers passes through `redact` before it is printed.
import type { IncomingMessage } from 'node:http';
import pino from 'pino';
import { WebSocket, type RawData } from 'ws';
import type { Config } from '../config.js';
import { listAccounts, listNumbers } from '../accounts/developer-settings.js';
import { ProviderError } from '../speech/provider-error.js';
import { redact } from '../speech/provider-socket.js';
import type { Store } from '../store/store.js';
import { cascadedRecognizer } from '../voice-agent/cascaded/configured-cascaded.js';
import { realtimeProtocol } from '../voice-agent/realtime-protocol.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  /** What is checked: `carrier`, `caller id +1…`, `public address`, `realtime model`, … */
  name: string;
  status: CheckStatus;
  /** What was found, in a sentence. */
  detail: string;
  /** What to do about it; absent when nothing is to be done. */
  fix?: string;
}

export interface DoctorOptions {
  /** How long each request to a service may take. */
  timeoutMs: number;
  /** How the user runs the svc command (`npx svc`, or the built entry point), for the fixes that name it. */
  program: string;
}

const silent = pino({ level: 'silent' });

/** Every check the configuration calls for, in the order a first call needs them. */
export async function runDoctor(config: Config, store: Store, options: DoctorOptions): Promise<Check[]> {
  const checks: Check[] = [];
  if (config.carrier === 'twilio') {
    const account = await twilioAccount(config, options);
    checks.push(account);
    if (account.status !== 'fail') checks.push(...(await callerIds(config, store, options)));
    checks.push(await publicAddress(config, options));
  } else {
    checks.push({ name: 'carrier', status: 'ok', detail: 'The sandbox carrier: simulated calls, no account needed.' });
  }
  checks.push(...(await agentChecks(config, options)));
  if (config.analyst === 'openai') checks.push(await modelList('analyst model', config.llmBaseUrl, config.llmApiKey ?? '', config.llmModel, 'SVC_LLM', options));
  return checks;
}

// ---- Twilio ----

function twilioGet(config: Config, path: string, options: DoctorOptions): Promise<Response> {
  const auth = Buffer.from(`${config.twilioAccountSid}:${config.twilioAuthToken}`).toString('base64');
  return fetch(`${config.twilioApiBaseUrl}/2010-04-01/Accounts/${config.twilioAccountSid}${path}`, {
    headers: { Authorization: `Basic ${auth}`, Accept: 'application/json' },
    signal: AbortSignal.timeout(options.timeoutMs),
  });
}

/** Twilio's error body in a sentence: its code and message, the token never in it. */
async function twilioReason(res: Response, config: Config): Promise<string> {
  const text = await res.text().catch(() => '');
  let reason = `HTTP ${res.status}`;
  try {
    const body = JSON.parse(text) as { code?: number; message?: string };
    if (body.code) reason += `, error ${body.code}`;
    if (body.message) reason += `: ${body.message}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return redact(reason, config.twilioAuthToken ?? '');
}

function unreachable(what: string, err: unknown): string {
  const e = err as { name?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `${what} did not answer in time`;
  return `${what} could not be reached (${e.cause?.code ?? e.cause?.message ?? 'network error'})`;
}

async function twilioAccount(config: Config, options: DoctorOptions): Promise<Check> {
  const name = 'carrier';
  const sid = config.twilioAccountSid ?? '';
  try {
    const res = await twilioGet(config, '.json', options);
    if (res.status === 401 || res.status === 403 || res.status === 404) {
      return {
        name,
        status: 'fail',
        detail: `Twilio refused the credentials for ${sid} (${await twilioReason(res, config)}).`,
        fix: "Set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN to the Account SID and Auth Token on the Twilio Console's dashboard (an API key's SID will not do).",
      };
    }
    if (!res.ok) return { name, status: 'fail', detail: `Twilio answered the account read with ${await twilioReason(res, config)}.`, fix: 'Try again; if it persists, see status.twilio.com.' };
    const account = (await res.json()) as { status?: string; type?: string; friendly_name?: string };
    if (account.status !== 'active') {
      return { name, status: 'fail', detail: `Twilio account ${sid} is ${account.status ?? 'not active'}.`, fix: 'Reactivate the account in the Twilio Console (Admin → Account).' };
    }
    const trial = account.type === 'Trial';
    return {
      name,
      status: trial ? 'warn' : 'ok',
      detail: `Twilio accepted the credentials for ${sid} (${account.type ?? 'account'}, active).`,
      ...(trial ? { fix: 'A trial account calls only verified numbers and plays a notice before each call; upgrade it to call anyone.' } : {}),
    };
  } catch (err) {
    return { name, status: 'fail', detail: `${unreachable(`Twilio's API at ${config.twilioApiBaseUrl}`, err)}.`, fix: 'Check the network, and SVC_TWILIO_API_BASE_URL if it is set.' };
  }
}

/** Each caller number in the store (or the development caller id when there is none) owned or verified on Twilio. */
async function callerIds(config: Config, store: Store, options: DoctorOptions): Promise<Check[]> {
  const numbers = new Set<string>();
  for (const account of await listAccounts(store.db)) {
    for (const n of await listNumbers(store.db, account.id)) numbers.add(n.e164);
  }
  if (numbers.size === 0) {
    if (config.production) {
      return [
        {
          name: 'caller id',
          status: 'fail',
          detail: 'No account in the store has a caller number.',
          fix: `Add the Twilio number calls are placed from: ${options.program} numbers add --account <id|name> <e164>`,
        },
      ];
    }
    numbers.add(config.devCallerId);
  }
  const checks: Check[] = [];
  for (const number of numbers) checks.push(await callerId(config, number, options));
  return checks;
}

async function callerId(config: Config, number: string, options: DoctorOptions): Promise<Check> {
  const name = `caller id ${number}`;
  const query = `?PhoneNumber=${encodeURIComponent(number)}`;
  try {
    const owned = await twilioGet(config, `/IncomingPhoneNumbers.json${query}`, options);
    if (!owned.ok) return { name, status: 'fail', detail: `Twilio answered the number lookup with ${await twilioReason(owned, config)}.`, fix: 'Try again.' };
    if (((await owned.json()) as { incoming_phone_numbers?: unknown[] }).incoming_phone_numbers?.length) {
      return { name, status: 'ok', detail: `${number} is a number of this Twilio account.` };
    }
    const verified = await twilioGet(config, `/OutgoingCallerIds.json${query}`, options);
    if (!verified.ok) return { name, status: 'fail', detail: `Twilio answered the caller id lookup with ${await twilioReason(verified, config)}.`, fix: 'Try again.' };
    if (((await verified.json()) as { outgoing_caller_ids?: unknown[] }).outgoing_caller_ids?.length) {
      return { name, status: 'ok', detail: `${number} is a verified caller id of this Twilio account.` };
    }
    return {
      name,
      status: 'fail',
      detail: `${number} is neither a number of this Twilio account nor a verified caller id: Twilio refuses calls from it (error 21210).`,
      fix: `Buy it (Phone Numbers → Buy a number) or verify it (Phone Numbers → Verified Caller IDs) in the Twilio Console, or add one you own with ${options.program} numbers add.`,
    };
  } catch (err) {
    return { name, status: 'fail', detail: `${unreachable("Twilio's API", err)}.`, fix: 'Check the network.' };
  }
}

/** The address Twilio sends callbacks and the media stream to answers svc's health check over https. */
async function publicAddress(config: Config, options: DoctorOptions): Promise<Check> {
  const name = 'public address';
  const base = config.publicBaseUrl;
  const tunnel = `Start svc (${options.program} serve), then a tunnel to its port, e.g. cloudflared tunnel --url http://localhost:8080, and set SVC_PUBLIC_BASE_URL to the https address it prints.`;
  if (!base.startsWith('https://')) {
    return { name, status: 'fail', detail: `SVC_PUBLIC_BASE_URL is ${base}: Twilio streams a call's audio only over wss, so it must be an https address.`, fix: tunnel };
  }
  try {
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(options.timeoutMs), redirect: 'manual' });
    const body = (await res.json().catch(() => null)) as { status?: string } | null;
    if (res.status === 200 && body?.status === 'ok') return { name, status: 'ok', detail: `${base} answers svc's health check over https.` };
    return {
      name,
      status: 'fail',
      detail: `${base}/healthz answered HTTP ${res.status}${res.status === 200 ? ', but not as svc does' : ''}: the address does not reach svc.`,
      fix: `Point the tunnel at svc's port (PORT, 8080 by default) and check svc is running. ${tunnel}`,
    };
  } catch (err) {
    const e = err as { cause?: { code?: string } };
    const certificate = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(e.cause?.code ?? '');
    return {
      name,
      status: 'fail',
      detail: certificate ? `${base} does not present a certificate Twilio would trust (${e.cause?.code}).` : `${unreachable(base, err)}.`,
      fix: certificate ? 'Use an address with a publicly trusted certificate (a tunnel such as cloudflared or ngrok gives one).' : tunnel,
    };
  }
}

// ---- The agent's providers ----

async function agentChecks(config: Config, options: DoctorOptions): Promise<Check[]> {
  if (config.agent === 'scripted') return [{ name: 'agent', status: 'ok', detail: 'The scripted sandbox agent: no model or voice needed.' }];
  if (config.agent === 'realtime') return [await realtimeSession(config, options)];
  const c = config.cascaded!;
  const checks: Check[] = [];
  if (c.stt === 'deepgram' || c.stt === 'openai') checks.push(await recognizerStream(config, options));
  else checks.push({ name: 'recogniser', status: 'ok', detail: c.stt === 'oracle' ? "The sandbox's oracle recogniser: nothing to reach." : 'pocketsphinx runs on this machine: nothing to reach.' });
  if (c.llm === 'openai') checks.push(await modelList('chat model', c.llmBaseUrl, c.llmApiKey ?? '', c.llmModel, 'SVC_AGENT_LLM', options));
  else checks.push({ name: 'chat model', status: 'ok', detail: "The sandbox's scripted model: nothing to reach." });
  if (c.tts === 'openai')
    checks.push(await modelList('voice', (c.ttsUrl ?? 'https://api.openai.com/v1').replace(/\/audio\/speech\/?$/, ''), c.ttsApiKey ?? '', 'gpt-4o-mini-tts', 'SVC_TTS', options, false));
  else if (c.tts === 'elevenlabs') checks.push(await elevenLabsVoice(c.ttsUrl, c.ttsApiKey ?? '', c.ttsVoice, options));
  else checks.push({ name: 'voice', status: 'ok', detail: 'espeak-ng runs on this machine: nothing to reach.' });
  return checks;
}

/** Opens a realtime session with the key, configures it as a call would (mu-law both ways), and closes it. */
function realtimeSession(config: Config, options: DoctorOptions): Promise<Check> {
  const name = 'realtime model';
  const key = config.realtimeApiKey ?? '';
  const protocol = realtimeProtocol(config.realtimeProtocol);
  const url = new URL(config.realtimeUrl);
  url.searchParams.set('model', config.realtimeModel);
  const fixKey = 'Set SVC_REALTIME_API_KEY to a key of a project with access to the realtime model (platform.openai.com → API keys).';
  const update = protocol.sessionUpdate({ callId: 'doctor', objective: 'Check the configuration.', context: null, fields: [], language: 'en-US', voice: 'alloy' }, []);
  return new Promise<Check>((resolve) => {
    const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${key}`, ...protocol.headers }, perMessageDeflate: false });
    let done = false;
    const finish = (check: Check) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => {});
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      else ws.terminate();
      resolve({ ...check, detail: redact(check.detail, key) });
    };
    const timer = setTimeout(
      () => finish({ name, status: 'fail', detail: `${url.host} did not confirm a session within ${options.timeoutMs} ms.`, fix: 'Check SVC_REALTIME_URL and the network.' }),
      options.timeoutMs,
    );
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      res.resume();
      finish({ name, status: 'fail', detail: `${url.host} refused the session: HTTP ${status}.`, fix: status === 401 || status === 403 ? fixKey : 'Check SVC_REALTIME_URL.' });
    });
    ws.on('open', () => ws.send(JSON.stringify(update)));
    ws.on('message', (data: RawData) => {
      let e: { type?: string; session?: unknown; error?: { code?: string; message?: string } };
      try {
        e = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (e.type === 'error') {
        const code = e.error?.code ?? 'error';
        const invalidKey = code === 'invalid_api_key';
        finish({
          name,
          status: 'fail',
          detail: `The realtime model refused the session: ${code}${e.error?.message ? ` (${e.error.message})` : ''}.`,
          fix: invalidKey ? fixKey : 'Check SVC_REALTIME_MODEL and SVC_REALTIME_PROTOCOL.',
        });
      } else if (e.type === 'session.updated') {
        if (protocol.confirms(e.session)) finish({ name, status: 'ok', detail: `${config.realtimeModel} at ${url.host} accepted the key and a session in G.711 mu-law both ways.` });
        else
          finish({
            name,
            status: 'fail',
            detail: `${config.realtimeModel} confirmed a session without G.711 mu-law both ways: it cannot take a phone line's audio.`,
            fix: 'Use a model that speaks audio/pcmu (gpt-realtime), or SVC_REALTIME_PROTOCOL=beta for a server on the beta interface.',
          });
      }
    });
    ws.on('close', (code: number, reason: Buffer) =>
      finish({
        name,
        status: 'fail',
        detail: `${url.host} closed the session (${code}${reason.length ? ` ${reason.toString()}` : ''}).`,
        fix: /invalid_api_key/.test(reason.toString()) ? fixKey : 'Check SVC_REALTIME_URL and SVC_REALTIME_MODEL.',
      }),
    );
    ws.on('error', (err: NodeJS.ErrnoException) =>
      finish({ name, status: 'fail', detail: `${url.host} could not be reached (${err.code ?? 'socket error'}).`, fix: 'Check SVC_REALTIME_URL and the network.' }),
    );
  });
}

/** Opens a recognition stream through the adapter a call uses, and closes it. */
async function recognizerStream(config: Config, options: DoctorOptions): Promise<Check> {
  const c = config.cascaded!;
  const name = `recogniser (${c.stt})`;
  const recognizer = cascadedRecognizer(c);
  let timer: NodeJS.Timeout | undefined;
  try {
    const stream = await Promise.race([
      recognizer.open({ callId: 'doctor', language: 'en-US', logger: silent }, { interim: () => {}, final: () => {}, failed: () => {} }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProviderError(c.stt, 'stalled', `${c.stt} did not open a stream within ${options.timeoutMs} ms`)), options.timeoutMs);
      }),
    ]);
    await stream.close(1000);
    return { name, status: 'ok', detail: `${c.stt} accepted the key and opened a stream for 8 kHz mu-law.` };
  } catch (err) {
    const e = err as ProviderError;
    const refused = e.failure === 'refused';
    return {
      name,
      status: 'fail',
      detail: `${redact(e.message ?? String(err), c.sttApiKey ?? '')}.`,
      fix: refused ? 'Set SVC_STT_API_KEY to a valid key for the recogniser (and SVC_STT_MODEL to a model it offers).' : 'Check SVC_STT_URL and the network, and try again.',
    };
  } finally {
    clearTimeout(timer);
  }
}

/** An OpenAI-compatible server's model list read with the key: the key is accepted, and the model offered. */
async function modelList(name: string, baseUrl: string, key: string, model: string, prefix: string, options: DoctorOptions, wantModel = true): Promise<Check> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(options.timeoutMs) });
    if (res.status === 401 || res.status === 403) {
      return { name, status: 'fail', detail: `${new URL(url).host} refused the key (HTTP ${res.status}).`, fix: `Set ${prefix}_API_KEY to a valid key for ${new URL(url).host}.` };
    }
    if (res.status === 404) {
      return {
        name,
        status: 'warn',
        detail: `${url} does not exist, so the key could not be checked without a request that costs.`,
        fix: `Check ${prefix}_BASE_URL ends where /chat/completions begins (such as https://api.openai.com/v1).`,
      };
    }
    if (!res.ok) return { name, status: 'fail', detail: `${url} answered HTTP ${res.status}.`, fix: `Check ${prefix}_BASE_URL and try again.` };
    const body = (await res.json().catch(() => null)) as { data?: Array<{ id?: string }> } | null;
    const ids = (body?.data ?? []).map((m) => m.id);
    if (wantModel && ids.length > 0 && !ids.includes(model)) {
      return {
        name,
        status: 'warn',
        detail: `${new URL(url).host} accepted the key but does not list the model ${model}.`,
        fix: `Set ${prefix}_MODEL to one it lists (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}).`,
      };
    }
    return { name, status: 'ok', detail: `${new URL(url).host} accepted the key${wantModel ? ` and offers ${model}` : ''}.` };
  } catch (err) {
    return { name, status: 'fail', detail: `${redact(unreachable(url, err), key)}.`, fix: `Check ${prefix}_BASE_URL and the network.` };
  }
}

/** ElevenLabs' record of the configured voice, read with the key. */
async function elevenLabsVoice(socketRoot: string | null, key: string, voice: string | null, options: DoctorOptions): Promise<Check> {
  const name = 'voice (elevenlabs)';
  if (!voice) return { name, status: 'fail', detail: 'SVC_TTS_VOICE is not set: ElevenLabs needs a voice id.', fix: 'Set SVC_TTS_VOICE to a voice id from elevenlabs.io → Voices.' };
  const root = (socketRoot ?? 'wss://api.elevenlabs.io/v1').replace(/^ws/, 'http').replace(/\/+$/, '');
  const url = `${root}/voices/${encodeURIComponent(voice)}`;
  try {
    const res = await fetch(url, { headers: { 'xi-api-key': key }, signal: AbortSignal.timeout(options.timeoutMs) });
    if (res.status === 401 || res.status === 403)
      return { name, status: 'fail', detail: `ElevenLabs refused the key (HTTP ${res.status}).`, fix: 'Set SVC_TTS_API_KEY to a valid ElevenLabs key (elevenlabs.io → API keys).' };
    if (res.status === 404 || res.status === 400)
      return { name, status: 'fail', detail: `ElevenLabs has no voice ${voice} for this key (HTTP ${res.status}).`, fix: 'Set SVC_TTS_VOICE to a voice id from elevenlabs.io → Voices.' };
    if (!res.ok) return { name, status: 'fail', detail: `ElevenLabs answered HTTP ${res.status}.`, fix: 'Try again.' };
    const body = (await res.json().catch(() => null)) as { name?: string } | null;
    return { name, status: 'ok', detail: `ElevenLabs accepted the key and has the voice ${voice}${body?.name ? ` (${body.name})` : ''}.` };
  } catch (err) {
    return { name, status: 'fail', detail: `${redact(unreachable(url, err), key)}.`, fix: 'Check SVC_TTS_URL and the network.' };
  }
}
