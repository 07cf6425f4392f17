// keys create|list|update|revoke and webhook-secret rotate. A key and a webhook secret are printed once, when made.
import { createKey, ownsNumber } from '../../accounts/accounts-repo.js';
import { findKey, listKeys, revokeKey, updateKey, type KeyUpdate } from '../../accounts/developer-settings.js';
import { rotateWebhookSecret } from '../../accounts/webhook-secrets.js';
import { DEFAULT_AGENT_CATALOGUE } from '../../placement/agent-catalogue.js';
import { checkWindow, WEEKDAYS } from '../../schedule/calling-window.js';
import { ApiError } from '../../errors/api-error.js';
import type { CallingWindow, Weekday } from '../../generated/types.gen.js';
import { e164, integer, optional } from '../arguments.js';
import { CliFailure, UsageError } from '../cli-error.js';
import type { Command, OptionValues } from '../command.js';
import { iso, table } from '../output.js';
import { ACCOUNT_OPTION, accountFrom } from './account-ref.js';

const MAX_RATE_LIMIT = 1_000_000;
const MAX_OVERLAP_SEC = 30 * 24 * 3600;

function voiceFrom(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const voices = DEFAULT_AGENT_CATALOGUE.voices;
  const found = voices.find((v) => v.toLowerCase() === raw.toLowerCase());
  if (!found) throw new UsageError(`--default-voice must be one of ${voices.join(', ')}, got "${raw}"`);
  return found;
}

/** --on-behalf-of: whom the agent says it calls for, as a placement's onBehalfOf (1 to 200 characters, not blank). */
function onBehalfOfFrom(raw: string): string {
  if (raw.length > 200 || raw.trim() === '') throw new UsageError(`--on-behalf-of must be 1 to 200 characters, not blank; got "${raw}"`);
  return raw;
}

/** --recording-notice on|off (and, for update, default: the service's, on). */
function noticeFrom(raw: string, allowDefault: boolean): number | null {
  if (raw === 'on') return 1;
  if (raw === 'off') return 0;
  if (allowDefault && raw === 'default') return null;
  throw new UsageError(`--recording-notice must be on or off${allowDefault ? ' (or default)' : ''}, got "${raw}"`);
}

const DISCLOSURE_OPTIONS = { 'on-behalf-of': { type: 'string' }, 'recording-notice': { type: 'string' } } as const;

/** The two disclosure defaults as lines of the human output. */
function describeDisclosure(onBehalfOf: string | null, recordingNotice: boolean): string[] {
  return [`  on behalf of:    ${onBehalfOf ?? 'a customer (none set)'}`, `  recording notice: ${recordingNotice ? 'on' : 'off (set it off only where the law allows)'}`];
}

const WINDOW_OPTIONS = { 'calling-window': { type: 'string' }, days: { type: 'string' }, 'time-zone': { type: 'string' } } as const;
const HOURS = /^(([01][0-9]|2[0-3]):[0-5][0-9])-(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/;

/** "mon-fri", "sat,sun" or "mon-wed,fri" as days in week order. */
function daysFrom(raw: string): Weekday[] {
  const days = new Set<Weekday>();
  for (const part of raw.toLowerCase().split(',')) {
    const [from, to = from] = part.trim().split('-') as [Weekday, Weekday?];
    const [i, j] = [WEEKDAYS.indexOf(from), WEEKDAYS.indexOf(to!)];
    if (i < 0 || j < 0 || j < i) throw new UsageError(`--days must be days such as mon-fri or sat,sun (mon tue wed thu fri sat sun), got "${raw}"`);
    for (const d of WEEKDAYS.slice(i, j + 1)) days.add(d);
  }
  return WEEKDAYS.filter((d) => days.has(d));
}

/**
 * The key's default calling window from --calling-window HH:MM-HH:MM [--days] [--time-zone], checked as a
 * placement checks one; undefined when not given, null for --calling-window none (update only).
 */
function windowFrom(values: OptionValues, allowNone: boolean): CallingWindow | null | undefined {
  const raw = optional(values, 'calling-window');
  const days = optional(values, 'days');
  const zone = optional(values, 'time-zone');
  if (raw === undefined) {
    if (days !== undefined || zone !== undefined) throw new UsageError('--days and --time-zone go with --calling-window');
    return undefined;
  }
  if (allowNone && raw === 'none') {
    if (days !== undefined || zone !== undefined) throw new UsageError('--calling-window none takes no --days or --time-zone');
    return null;
  }
  const hours = HOURS.exec(raw);
  if (!hours) throw new UsageError(`--calling-window must be HH:MM-HH:MM in 24-hour time, such as 09:00-20:00${allowNone ? ', or none' : ''}; got "${raw}"`);
  const window: CallingWindow = { start: hours[1]!, end: hours[3]!, ...(days !== undefined ? { days: daysFrom(days) } : {}), ...(zone !== undefined ? { timeZone: zone } : {}) };
  try {
    return checkWindow(window);
  } catch (err) {
    // The placement's words name the request's property; the CLI's name its options.
    if (err instanceof ApiError)
      throw new UsageError(err.message.replace('`callingWindow.timeZone`', '--time-zone').replace('`callingWindow.end` must be later than `start`', 'the window must end after it starts'));
    throw err;
  }
}

/** A window as one line: "09:00-20:00 mon-fri, in the callee's time zone". */
export function describeWindow(w: CallingWindow | null): string {
  if (w === null) return 'none (calls are dialled whenever they are due)';
  const days = w.days && w.days.length < 7 ? ` ${w.days.join(',')}` : ' every day';
  return `${w.start}-${w.end}${days}, ${w.timeZone ? `in ${w.timeZone}` : "in the callee's time zone (by the number)"}`;
}

/** --machine-detection on|off: the key's default; `on` is stored as no default (null). */
function machineDetectionFrom(values: OptionValues): 'on' | 'off' | undefined {
  const raw = optional(values, 'machine-detection');
  if (raw === undefined) return undefined;
  if (raw !== 'on' && raw !== 'off') throw new UsageError('--machine-detection must be on or off');
  return raw;
}

export const keyCommands: Command[] = [
  {
    name: 'keys create',
    summary: 'Create an API key; prints the key and its webhook signing secret once.',
    synopsis:
      '--account <id|name> [--name <label>] [--default-caller-id <e164>] [--default-voice <voice>] [--rate-limit <calls per window>] [--calling-window HH:MM-HH:MM [--days mon-fri] [--time-zone <IANA>]] [--machine-detection on|off] [--on-behalf-of <name>] [--recording-notice on|off]',
    options: {
      ...ACCOUNT_OPTION,
      name: { type: 'string' },
      'default-caller-id': { type: 'string' },
      'default-voice': { type: 'string' },
      'rate-limit': { type: 'string' },
      'machine-detection': { type: 'string' },
      ...WINDOW_OPTIONS,
      ...DISCLOSURE_OPTIONS,
    },
    async run(ctx, values) {
      const name = optional(values, 'name') || 'default';
      if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
      const rawCaller = optional(values, 'default-caller-id');
      const callerId = rawCaller === undefined ? null : e164('--default-caller-id', rawCaller);
      const voice = voiceFrom(optional(values, 'default-voice'));
      const rawLimit = optional(values, 'rate-limit');
      const rateLimit = rawLimit === undefined ? null : integer('--rate-limit', rawLimit, 1, MAX_RATE_LIMIT);
      const callingWindow = windowFrom(values, false) ?? null;
      const machineDetection = machineDetectionFrom(values) ?? 'on';
      const rawBehalf = optional(values, 'on-behalf-of');
      const onBehalfOf = rawBehalf === undefined ? null : onBehalfOfFrom(rawBehalf);
      const rawNotice = optional(values, 'recording-notice');
      const recordingNotice = rawNotice === undefined ? true : noticeFrom(rawNotice, false) === 1;
      const account = await accountFrom(ctx, values);
      if (callerId && !(await ownsNumber(ctx.store.db, account.id, callerId))) {
        throw new CliFailure(`account "${account.name}" does not own ${callerId}; add it first: ${ctx.program} numbers add --account ${account.id} ${callerId}`);
      }
      const { row, key } = await createKey(
        ctx.store.db,
        {
          accountId: account.id,
          name,
          defaultCallerId: callerId,
          defaultVoice: voice,
          rateLimit,
          callingWindow,
          machineDetection,
          onBehalfOf,
          recordingNotice: rawNotice === undefined ? null : recordingNotice,
        },
        ctx.now(),
      );
      const effectiveLimit = rateLimit ?? ctx.config.defaultRateLimit;
      ctx.emit(
        {
          id: row.id,
          accountId: account.id,
          name,
          key,
          keyHint: row.key_hint,
          webhookSecret: row.webhook_secret,
          defaultCallerId: callerId,
          defaultVoice: voice,
          rateLimit,
          callingWindow,
          machineDetection,
          onBehalfOf,
          recordingNotice,
          createdAt: iso(row.created_at),
        },
        [
          `Created key "${name}" (${row.id}) for account "${account.name}".`,
          `  API key:         ${key}`,
          `  webhook secret:  ${row.webhook_secret}`,
          `  caller id:       ${callerId ?? `account default (${account.default_caller_id ?? 'none set'})`}`,
          `  voice:           ${voice ?? `platform default (${DEFAULT_AGENT_CATALOGUE.defaultVoice})`}`,
          `  rate limit:      ${effectiveLimit} calls per ${ctx.config.rateWindowSec} s${rateLimit === null ? ' (service default)' : ''}`,
          `  calling window:  ${describeWindow(callingWindow)}`,
          `  machine detection: ${machineDetection}`,
          ...describeDisclosure(onBehalfOf, recordingNotice),
          'Both secrets are shown only now: the key is stored hashed. Keep them somewhere safe.',
        ].join('\n'),
      );
    },
  },
  {
    name: 'keys list',
    summary: "List an account's keys by hint (never the key), with their defaults and whether revoked.",
    synopsis: '--account <id|name>',
    options: { ...ACCOUNT_OPTION },
    async run(ctx, values) {
      const account = await accountFrom(ctx, values);
      const keys = await listKeys(ctx.store.db, account.id);
      ctx.emit(
        keys.map((k) => ({ ...k, revokedAt: iso(k.revokedAt), createdAt: iso(k.createdAt) })),
        table(
          ['ID', 'NAME', 'KEY', 'CALLER ID', 'VOICE', 'RATE LIMIT', 'CALLING WINDOW', 'REVOKED'],
          keys.map((k) => [k.id, k.name, k.keyHint, k.defaultCallerId, k.defaultVoice, k.rateLimit, k.callingWindow && describeWindow(k.callingWindow), iso(k.revokedAt)]),
          `Account "${account.name}" has no keys. Create one with: ${ctx.program} keys create --account ${account.id}`,
        ),
      );
    },
  },
  {
    name: 'keys update',
    summary: "Change a key's name or defaults (caller id, voice, rate limit, calling window, machine detection, on whose behalf, recording notice); `none` clears a default.",
    synopsis:
      '<key-id> [--name <label>] [--default-caller-id <e164|none>] [--default-voice <voice|none>] [--rate-limit <n|none>] [--calling-window <HH:MM-HH:MM|none> [--days mon-fri] [--time-zone <IANA>]] [--machine-detection on|off] [--on-behalf-of <name|none>] [--recording-notice <on|off|default>]',
    options: {
      name: { type: 'string' },
      'default-caller-id': { type: 'string' },
      'default-voice': { type: 'string' },
      'rate-limit': { type: 'string' },
      'machine-detection': { type: 'string' },
      ...WINDOW_OPTIONS,
      ...DISCLOSURE_OPTIONS,
    },
    positionals: ['key-id'],
    async run(ctx, values, [keyId]) {
      const update: KeyUpdate = {};
      const name = optional(values, 'name');
      if (name !== undefined) {
        if (name === '' || name.length > 100) throw new UsageError('--name must be 1 to 100 characters');
        update.name = name;
      }
      const rawCaller = optional(values, 'default-caller-id');
      if (rawCaller !== undefined) update.default_caller_id = rawCaller === 'none' ? null : e164('--default-caller-id', rawCaller);
      const rawVoice = optional(values, 'default-voice');
      if (rawVoice !== undefined) update.default_voice = rawVoice === 'none' ? null : voiceFrom(rawVoice);
      const rawLimit = optional(values, 'rate-limit');
      if (rawLimit !== undefined) update.rate_limit = rawLimit === 'none' ? null : integer('--rate-limit', rawLimit, 1, MAX_RATE_LIMIT);
      const callingWindow = windowFrom(values, true);
      if (callingWindow !== undefined) update.calling_window_json = callingWindow === null ? null : JSON.stringify(callingWindow);
      const machineDetection = machineDetectionFrom(values);
      if (machineDetection !== undefined) update.machine_detection = machineDetection === 'off' ? 'off' : null;
      const rawBehalf = optional(values, 'on-behalf-of');
      if (rawBehalf !== undefined) update.on_behalf_of = rawBehalf === 'none' ? null : onBehalfOfFrom(rawBehalf);
      const rawNotice = optional(values, 'recording-notice');
      if (rawNotice !== undefined) update.recording_notice = noticeFrom(rawNotice, true);
      if (Object.keys(update).length === 0) {
        throw new UsageError('nothing to change: give --name, --default-caller-id, --default-voice, --rate-limit, --calling-window, --machine-detection, --on-behalf-of or --recording-notice');
      }
      const key = await findKey(ctx.store.db, keyId);
      if (!key) throw new CliFailure(`no key with id "${keyId}" (${ctx.program} keys list --account <account> shows them)`);
      if (key.revoked_at !== null) throw new CliFailure(`key ${keyId} is revoked`);
      if (update.default_caller_id && !(await ownsNumber(ctx.store.db, key.account_id, update.default_caller_id))) {
        throw new CliFailure(`the key's account does not own ${update.default_caller_id}; add it first: ${ctx.program} numbers add --account ${key.account_id} ${update.default_caller_id}`);
      }
      if (!(await updateKey(ctx.store.db, keyId, update))) throw new CliFailure(`key ${keyId} is revoked`);
      const listing = (await listKeys(ctx.store.db, key.account_id)).find((k) => k.id === keyId)!;
      ctx.emit(
        { ...listing, revokedAt: iso(listing.revokedAt), createdAt: iso(listing.createdAt) },
        [
          `Updated key "${listing.name}" (${keyId}); requests made with it from now on use:`,
          `  caller id:       ${listing.defaultCallerId ?? 'account default'}`,
          `  voice:           ${listing.defaultVoice ?? `platform default (${DEFAULT_AGENT_CATALOGUE.defaultVoice})`}`,
          `  rate limit:      ${listing.rateLimit ?? ctx.config.defaultRateLimit} calls per ${ctx.config.rateWindowSec} s${listing.rateLimit === null ? ' (service default)' : ''}`,
          `  calling window:  ${describeWindow(listing.callingWindow)}`,
          `  machine detection: ${listing.machineDetection}`,
          ...describeDisclosure(listing.onBehalfOf, listing.recordingNotice),
        ].join('\n'),
      );
    },
  },
  {
    name: 'keys revoke',
    summary: 'Revoke a key: from now on it gets 401.',
    synopsis: '<key-id>',
    options: {},
    positionals: ['key-id'],
    async run(ctx, _values, [keyId]) {
      const key = await findKey(ctx.store.db, keyId);
      if (!key) throw new CliFailure(`no key with id "${keyId}" (${ctx.program} keys list --account <account> shows them)`);
      if (!(await revokeKey(ctx.store.db, keyId, ctx.now()))) throw new CliFailure(`key ${keyId} is already revoked`);
      ctx.emit({ id: keyId, revoked: true }, `Revoked key ${keyId}.`);
    },
  },
  {
    name: 'webhook-secret rotate',
    summary: 'Give a key a new webhook signing secret; the old one keeps signing (as a second v1) during the overlap.',
    synopsis: '<key-id> [--overlap-sec <n, default SVC_WEBHOOK_SECRET_OVERLAP_SEC>]',
    options: { 'overlap-sec': { type: 'string' } },
    positionals: ['key-id'],
    async run(ctx, values, [keyId]) {
      const rawOverlap = optional(values, 'overlap-sec');
      const overlapSec = rawOverlap === undefined ? ctx.config.webhookSecretOverlapSec : integer('--overlap-sec', rawOverlap, 0, MAX_OVERLAP_SEC);
      const key = await findKey(ctx.store.db, keyId);
      if (!key) throw new CliFailure(`no key with id "${keyId}" (${ctx.program} keys list --account <account> shows them)`);
      if (key.revoked_at !== null) throw new CliFailure(`key ${keyId} is revoked; its webhooks are no longer sent`);
      const now = ctx.now();
      const secret = await rotateWebhookSecret(ctx.store.db, keyId, now, overlapSec);
      if (secret === null) throw new CliFailure(`no key with id "${keyId}"`);
      const until = iso(now + overlapSec * 1000);
      ctx.emit(
        { id: keyId, webhookSecret: secret, previousSecretValidUntil: until },
        [
          `New webhook secret for key ${keyId}:`,
          `  ${secret}`,
          `Deliveries are signed with both the new and the previous secret until ${until}; switch your receiver before then.`,
          'The secret is shown only now.',
        ].join('\n'),
      );
    },
  },
];
