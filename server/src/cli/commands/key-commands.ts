// keys create|list|revoke and webhook-secret rotate. A key and a webhook secret are printed once, when made.
import { createKey, ownsNumber } from '../../accounts/accounts-repo.js';
import { findKey, listKeys, revokeKey } from '../../accounts/developer-settings.js';
import { rotateWebhookSecret } from '../../accounts/webhook-secrets.js';
import { DEFAULT_AGENT_CATALOGUE } from '../../calls/agent-catalogue.js';
import { e164, integer, optional } from '../arguments.js';
import { CliFailure, UsageError } from '../cli-error.js';
import type { Command } from '../command.js';
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

export const keyCommands: Command[] = [
  {
    name: 'keys create',
    summary: 'Create an API key; prints the key and its webhook signing secret once.',
    synopsis: '--account <id|name> [--name <label>] [--default-caller-id <e164>] [--default-voice <voice>] [--rate-limit <calls per window>]',
    options: { ...ACCOUNT_OPTION, name: { type: 'string' }, 'default-caller-id': { type: 'string' }, 'default-voice': { type: 'string' }, 'rate-limit': { type: 'string' } },
    async run(ctx, values) {
      const name = optional(values, 'name') || 'default';
      if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
      const rawCaller = optional(values, 'default-caller-id');
      const callerId = rawCaller === undefined ? null : e164('--default-caller-id', rawCaller);
      const voice = voiceFrom(optional(values, 'default-voice'));
      const rawLimit = optional(values, 'rate-limit');
      const rateLimit = rawLimit === undefined ? null : integer('--rate-limit', rawLimit, 1, MAX_RATE_LIMIT);
      const account = await accountFrom(ctx, values);
      if (callerId && !(await ownsNumber(ctx.store.db, account.id, callerId))) {
        throw new CliFailure(`account "${account.name}" does not own ${callerId}; add it first: svc numbers add --account ${account.id} ${callerId}`);
      }
      const { row, key } = await createKey(ctx.store.db, { accountId: account.id, name, defaultCallerId: callerId, defaultVoice: voice, rateLimit }, ctx.now());
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
          createdAt: iso(row.created_at),
        },
        [
          `Created key "${name}" (${row.id}) for account "${account.name}".`,
          `  API key:         ${key}`,
          `  webhook secret:  ${row.webhook_secret}`,
          `  caller id:       ${callerId ?? `account default (${account.default_caller_id ?? 'none set'})`}`,
          `  voice:           ${voice ?? `platform default (${DEFAULT_AGENT_CATALOGUE.defaultVoice})`}`,
          `  rate limit:      ${effectiveLimit} calls per ${ctx.config.rateWindowSec} s${rateLimit === null ? ' (service default)' : ''}`,
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
          ['ID', 'NAME', 'KEY', 'CALLER ID', 'VOICE', 'RATE LIMIT', 'REVOKED'],
          keys.map((k) => [k.id, k.name, k.keyHint, k.defaultCallerId, k.defaultVoice, k.rateLimit, iso(k.revokedAt)]),
          `Account "${account.name}" has no keys. Create one with: svc keys create --account ${account.id}`,
        ),
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
      if (!key) throw new CliFailure(`no key with id "${keyId}" (svc keys list --account <account> shows them)`);
      if (!(await revokeKey(ctx.store.db, keyId, ctx.now()))) throw new CliFailure(`key ${keyId} is already revoked`);
      ctx.emit({ id: keyId, revoked: true }, `Revoked key ${keyId}.`);
    },
  },
  {
    name: 'webhook-secret rotate',
    summary: "Give a key a new webhook signing secret; the old one keeps signing (as a second v1) during the overlap.",
    synopsis: '<key-id> [--overlap-sec <n, default SVC_WEBHOOK_SECRET_OVERLAP_SEC>]',
    options: { 'overlap-sec': { type: 'string' } },
    positionals: ['key-id'],
    async run(ctx, values, [keyId]) {
      const rawOverlap = optional(values, 'overlap-sec');
      const overlapSec = rawOverlap === undefined ? ctx.config.webhookSecretOverlapSec : integer('--overlap-sec', rawOverlap, 0, MAX_OVERLAP_SEC);
      const key = await findKey(ctx.store.db, keyId);
      if (!key) throw new CliFailure(`no key with id "${keyId}" (svc keys list --account <account> shows them)`);
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
