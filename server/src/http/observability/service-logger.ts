// The service's logger: JSON lines (pino) where no key or secret can appear. Known secret fields are redacted by
// path, and every line is scrubbed of `svc_ak_…` and `whsec_…` values on its way out, so a secret that reaches
// a message or an error by accident is still never written. Lines logged while a request is handled carry its
// request id: the code that logs them passes `reqId: ctx.state.reqId` (see request-observer.ts). An
// AsyncLocalStorage would tag them without being asked, but its promise hooks cost every request time.
import { pino, type DestinationStream, type Logger } from 'pino';

const SECRET_VALUE = /(svc_ak_|whsec_)[A-Za-z0-9_-]+/g;

/** Replaces every API key and webhook secret in the text with its prefix and `[redacted]`. */
export function scrubSecrets(text: string): string {
  return text.replace(SECRET_VALUE, '$1[redacted]');
}

const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'key',
  'apiKey',
  'webhookSecret',
  'webhook_secret',
  'previous_webhook_secret',
  'secret',
];

export interface ServiceLoggerOptions {
  level?: string;
  /** Where lines go; standard output by default. */
  destination?: DestinationStream;
}

export function serviceLogger(options: ServiceLoggerOptions = {}): Logger {
  const out = options.destination ?? pino.destination(1);
  const scrubbed: DestinationStream = { write: (line: string) => out.write(scrubSecrets(line)) };
  return pino(
    {
      name: 'svc',
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    scrubbed,
  );
}
