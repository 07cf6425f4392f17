// Dialling: the attempt is committed before the carrier is asked, so a call is dialled at most once; a dial the
// carrier throttled is tried again on a back-off, for as long as the watchdog would wait for a dialled call.
import type { CallStatus } from '../generated/types.gen.js';
import { backoffMs } from '../jobs/backoff.js';
import type { CallRow } from '../store/calls-repo.js';
import { CarrierRefused, CarrierThrottled } from '../telephony/carrier.js';
import type { CallErrorToken } from '../calls/call-status.js';
import { transition } from './call-state.js';
import type { EngineState, StepContext, Throttle } from './step-context.js';

/** Dialling again after the carrier throttled: 1 s, 2 s, 4 s, … up to 30 s (Twilio allows about one call a second). */
const DIAL_BACKOFF = { baseMs: 1000, maxMs: 30_000 };

export async function dial(ctx: StepContext, row: CallRow): Promise<void> {
  const { carrier, clock } = ctx.deps;
  const now = clock.now();
  const throttle = (JSON.parse(row.engine_state ?? '{}') as EngineState).throttle;
  // The attempt is durable before the carrier hears of it; the lease stays on for the dial itself.
  const attempted = await ctx.commit(row, now, { set: transition(row.status as CallStatus, { type: 'dial_started', at: now }).patch, nextRunAt: now, keepLease: true });
  let dialled: Awaited<ReturnType<typeof carrier.dial>>;
  try {
    dialled = await carrier.dial(
      {
        callId: row.id,
        to: row.to_number,
        callerId: row.caller_id,
        language: row.language ?? 'en-US',
        leaveMessage: row.voicemail_message !== null,
        machineDetection: row.machine_detection !== 'off',
        ...(row.send_digits === null ? {} : { sendDigits: row.send_digits }),
      },
      now,
    );
  } catch (err) {
    if (err instanceof CarrierThrottled) return throttled(ctx, attempted, throttle, err);
    const token: CallErrorToken = err instanceof CarrierRefused ? err.token : 'dial_failed';
    if (!(err instanceof CarrierRefused)) ctx.deps.logger.error({ err, callId: row.id }, 'carrier dial failed');
    await ctx.apply(attempted, { type: 'ended', at: clock.now(), outcome: 'failed', error: token }, {}, null);
    return;
  }
  try {
    await ctx.commit(attempted, clock.now(), { set: { carrier_ref: dialled.ref, engine_state: JSON.stringify({ line: dialled.state } satisfies EngineState) }, nextRunAt: clock.now() });
  } catch (err) {
    // Another worker took the call over and will end it engine_interrupted: take the line down with it.
    await carrier.hangUp(dialled.ref, dialled.state, clock.now()).catch(() => {});
    throw err;
  }
}

/**
 * The carrier did not take the dial (Twilio's 429): nothing was placed. The call stays dialing with no attempt
 * standing and is dialled again on a back-off (the carrier's Retry-After when it gave one), for as long as the
 * watchdog would wait for news of a dialled call; then it fails carrier_throttled.
 */
async function throttled(ctx: StepContext, row: CallRow, previous: Throttle | undefined, err: CarrierThrottled): Promise<void> {
  const { clock, settings, carrier, random = Math.random } = ctx.deps;
  const now = clock.now();
  const throttle: Throttle = { since: previous?.since ?? row.dial_attempted_at!, tries: (previous?.tries ?? 0) + 1 };
  const engineState = JSON.stringify({ line: null, throttle } satisfies EngineState);
  if (now - throttle.since >= Math.round(settings.watchdogSec * 1000 * carrier.timeScale)) {
    ctx.deps.logger.warn({ callId: row.id, tries: throttle.tries }, 'the carrier kept throttling the dial; the call fails');
    await ctx.apply(row, { type: 'throttled_out', at: now }, { engine_state: engineState }, null);
    return;
  }
  const retryAt = now + backoffMs(DIAL_BACKOFF, throttle.tries, random, err.retryAfterMs);
  ctx.deps.logger.warn({ callId: row.id, tries: throttle.tries, retryAt: new Date(retryAt).toISOString() }, 'the carrier throttled the dial; dialling again later');
  await ctx.apply(row, { type: 'dial_throttled', at: now }, { engine_state: engineState }, retryAt);
}
