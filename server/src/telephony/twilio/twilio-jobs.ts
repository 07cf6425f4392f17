// Twilio work that must outlast Twilio's refusals and the process that started it, kept as jobs of the jobs table
// (jobs/job-runner.ts) and run by the worker processes:
// - ending a line: tried at once, and when Twilio throttles (429), fails (5xx) or cannot be reached, tried again
//   on a back-off until Twilio accepts it or reports the line ended (its `completed` callback). A call never stays
//   up silently: should every try fail, the TimeLimit the call was created with (call-params.ts) ends it at the
//   maximum duration, and the job stops trying there;
// - fetching a recording: its callback only enqueues the job, which fetches the WAV (one channel, and the two-channel
//   rendition beside it) on a back-off for 90 minutes (Twilio may say 404 for a moment, throttle or be down) and sets
//   the call's recording once it is stored; until then the call has no recordingUrl.
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { backoffMs } from '../../jobs/backoff.js';
import { enqueueJob, type JobHandler } from '../../jobs/job-runner.js';
import { writeRecording } from '../../recording/write-recording.js';
import { setRecordingPath } from '../../store/calls/call-by-id.js';
import type { Store } from '../../store/store.js';
import { readTwilioEvents } from './line-events.js';
import { isRetryable, TwilioRestError, type TwilioRest } from './twilio-rest.js';

export const HANG_UP_JOB = 'twilio.hang_up';
export const RECORDING_JOB = 'twilio.fetch_recording';

const HANG_UP_BACKOFF = { baseMs: 1000, maxMs: 30_000 };
const RECORDING_BACKOFF = { baseMs: 10_000, maxMs: 10 * 60_000 };
/** How long a recording is tried for, from its callback. */
export const RECORDING_WINDOW_MS = 90 * 60_000;
/** Twilio ends a call this long after the maximum duration by itself (its TimeLimit); a hang-up is tried that long. */
export const TIME_LIMIT_GRACE_SEC = 60;

export interface TwilioJobDeps {
  store: Store;
  clock: Clock;
  rest: TwilioRest;
  config: Pick<Config, 'dataDir' | 'recordingsDir' | 'maxCallDurationSec'>;
  logger: Logger;
  random?: () => number;
}

interface HangUpPayload {
  callId: string | null;
  sid: string;
  /** When the first try failed. */
  since: number;
}

interface RecordingPayload {
  callId: string;
  sid: string;
  recordingUrl: string;
  recordingSid: string;
  since: number;
}

const retryAfterOf = (err: unknown) => (err instanceof TwilioRestError ? err.retryAfterMs : null);

/**
 * Ends Twilio's line now if it lets us; otherwise leaves a job that keeps trying. Resolves once one or the other
 * is done; rejects only when neither could be (Twilio refused and the store is down).
 */
export async function hangUpDurably(deps: TwilioJobDeps, callId: string | null, sid: string): Promise<void> {
  try {
    await deps.rest.endCall(sid);
  } catch (err) {
    // Refused outright (4xx): Twilio has no live call of that sid to end.
    if (!isRetryable(err)) return;
    const now = deps.clock.now();
    deps.logger.warn({ callId, callSid: sid, err: (err as Error).message }, 'hang-up not taken; trying again as a job');
    const payload: HangUpPayload = { callId, sid, since: now };
    await enqueueJob(
      deps.store.db,
      { id: `${HANG_UP_JOB}:${sid}`, kind: HANG_UP_JOB, callId, payload, runAt: now + backoffMs(HANG_UP_BACKOFF, 1, deps.random ?? Math.random, retryAfterOf(err)) },
      now,
    );
  }
}

/** Leaves the job that fetches a recording Twilio said is ready (a callback repeated is the same job). */
export async function enqueueRecordingFetch(deps: Pick<TwilioJobDeps, 'store' | 'clock'>, p: Omit<RecordingPayload, 'since'>): Promise<void> {
  const now = deps.clock.now();
  await enqueueJob(deps.store.db, { id: `${RECORDING_JOB}:${p.recordingSid}`, kind: RECORDING_JOB, callId: p.callId, payload: { ...p, since: now }, runAt: now }, now);
}

/** True once Twilio's status callbacks said the line ended (a machine-detection verdict says nothing of it). */
async function lineEnded(store: Store, sid: string): Promise<boolean> {
  return (await readTwilioEvents(store.db, sid, 0)).some(({ source, event }) => source === 'status' && event.kind !== 'answered');
}

export function twilioJobHandlers(deps: TwilioJobDeps): Record<string, JobHandler> {
  const { store, clock, rest } = deps;
  const random = deps.random ?? Math.random;
  const hangUpFor = (deps.config.maxCallDurationSec + TIME_LIMIT_GRACE_SEC) * 1000;

  const hangUp: JobHandler = async (payload, job) => {
    const p = payload as HangUpPayload;
    if (await lineEnded(store, p.sid)) return { done: true };
    try {
      await rest.endCall(p.sid);
      return { done: true };
    } catch (err) {
      if (!isRetryable(err)) return { done: true };
      const now = clock.now();
      if (now - p.since >= hangUpFor) return { failed: `Twilio did not take the hang-up for ${Math.round(hangUpFor / 1000)} s (its TimeLimit has ended the call): ${(err as Error).message}` };
      return { retryAt: now + backoffMs(HANG_UP_BACKOFF, job.attempts + 2, random, retryAfterOf(err)), error: (err as Error).message };
    }
  };

  // Not there yet (404), throttled, down or unreachable: tried again; anything else will not get better.
  const passing = (err: unknown) => isRetryable(err) || (err instanceof TwilioRestError && err.status === 404);

  // Both renditions are fetched: the v1 recording downmixed to one channel (what recordingUrl serves)
  // and the two-channel one, written first so that a call with a recording has both. A two-channel rendition
  // Twilio refuses outright (a 4xx that will not get better) leaves the call with its v1 recording alone.
  const fetchRecording: JobHandler = async (payload, job) => {
    const p = payload as RecordingPayload;
    let wav: Buffer;
    let twoChannels: Buffer | null;
    try {
      wav = await rest.fetchRecording(p.recordingUrl, 1);
      twoChannels = await rest.fetchRecording(p.recordingUrl, 2).catch((err: unknown) => {
        if (passing(err)) throw err;
        deps.logger.warn({ callId: p.callId, recordingSid: p.recordingSid, err: (err as Error).message }, 'two-channel recording refused; keeping the one-channel recording');
        return null;
      });
    } catch (err) {
      const now = clock.now();
      if (!passing(err)) return { failed: (err as Error).message };
      if (now - p.since >= RECORDING_WINDOW_MS) return { failed: `no recording after ${RECORDING_WINDOW_MS / 60_000} minutes: ${(err as Error).message}` };
      return { retryAt: now + backoffMs(RECORDING_BACKOFF, job.attempts + 1, random, retryAfterOf(err)), error: (err as Error).message };
    }
    if (twoChannels) await writeRecording(deps.config, p.callId, twoChannels, 2);
    const path = await writeRecording(deps.config, p.callId, wav);
    await setRecordingPath(store.db, p.callId, path);
    return { done: true };
  };

  return { [HANG_UP_JOB]: hangUp, [RECORDING_JOB]: fetchRecording };
}
