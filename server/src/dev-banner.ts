// The banner a development start prints once it listens: where the service, its API reference and its console
// are, the dev key as an `export` line ready to paste, and a sandbox call to place with it, saying how long the
// call takes and, when this process runs no worker, what has to run for it to be placed at all.
import type { Config } from './config.js';

/** Call time of the sample call with the scripted agent: 4 s of ringing and about 27 s of talk. */
const SAMPLE_CALL_SEC = 31;

export interface DevBannerFacts {
  config: Config;
  /** The dev key in clear when it is known this start; null on later starts (only its hash is kept). */
  apiKey: string | null;
  webhookSecret: string;
  /** How the user runs the svc command here (`npx svc`, or the built entry point). */
  program: string;
}

export function devBanner({ config, apiKey, webhookSecret, program }: DevBannerFacts): string {
  const base = config.publicBaseUrl;
  const store = config.databaseUrl ? 'postgres' : `sqlite in ${config.dataDir}`;
  const sameStore = config.databaseUrl ? 'the same DATABASE_URL' : 'the same SVC_DATA_DIR';
  const keyLines = apiKey
    ? [`  dev API key:        ${apiKey}`, '  (the key is shown in full only now; it is stored hashed)']
    : [
        '  dev API key:        printed on the first start only (it is stored hashed). To get one again, either',
        `                      make a new key:  ${program} keys create --account dev   (with ${sameStore})`,
        '                      or fix one:      start with SVC_DEV_API_KEY=svc_ak_<16+ letters or digits>',
      ];
  const lines = [
    '',
    `  svc is running at ${base}  (store: ${store}, carrier: ${config.carrier})`,
    `  API reference:      ${base}/docs`,
    `  console:            ${base}/console  (sign in with the key below)`,
    ...keyLines,
    `  webhook secret:     ${webhookSecret}`,
    '',
    ...(config.role === 'api'
      ? [
          '  This process serves the API only (role api): the calls it takes stay queued until a worker runs on the',
          `  same store. Start one in another terminal, with ${sameStore}: ${program} serve --role worker`,
          '',
        ]
      : []),
    config.carrier === 'sandbox' ? `  Place a sandbox call${callTime(config)}:` : '  Place a call (a real one: the carrier is Twilio):',
    `  export SVC_API_KEY=${apiKey ?? '<your key>'}`,
    `  curl -sS -X POST ${base}/v1/agent/calls \\`,
    '    -H "Authorization: Bearer $SVC_API_KEY" -H "Content-Type: application/json" \\',
    `    -d '{"to":"+14155550123","objective":"Ask whether the shop is open on Sunday","fields":[{"name":"open_sunday","type":"boolean"}]}'`,
    `  then read it:  curl -sS ${base}/v1/agent/calls/<callId> -H "Authorization: Bearer $SVC_API_KEY"`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/** " (it ends about 31 s after it is placed; …)" for the scripted sandbox; nothing where the time is the callee's. */
function callTime(config: Config): string {
  if (config.agent !== 'scripted') return '';
  const sec = Math.max(1, Math.round(SAMPLE_CALL_SEC * config.sandboxTimeScale));
  const faster = config.sandboxTimeScale >= 1 ? '; SVC_SANDBOX_TIME_SCALE=0.1 runs the sandbox ten times faster' : '';
  return ` (it ends about ${sec} s after it is placed: the sandbox talks at a person's pace${faster})`;
}
