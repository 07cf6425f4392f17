// A batch's stop condition (stopWhen { field, equals, count }): counted as each of its calls completes, in the
// transaction that writes the completion, so the count is exact however many workers complete calls at once (the
// increment takes the batch row's lock). The completion that makes it reach `count` stops the batch there, in that
// same transaction, as a cancel would (cancel-batch.ts): calls live by then finish, and none is dialled after it.
import type { ExtractedValues, StopWhen } from '../generated/types.gen.js';
import { countMatch, stopConditionOf } from '../store/batches/batches.js';
import type { Executor } from '../store/store.js';
import { endBatch, RUNNING } from './cancel-batch.js';

export async function countTowardStop(ex: Executor, batchId: string, extracted: ExtractedValues | null, now: number): Promise<void> {
  const batch = await stopConditionOf(ex, batchId);
  if (!batch?.stop_when_json) return;
  const stopWhen = JSON.parse(batch.stop_when_json) as StopWhen;
  if (extracted === null || !Object.hasOwn(extracted, stopWhen.field) || extracted[stopWhen.field] !== stopWhen.equals) return;
  const counted = await countMatch(ex, batchId);
  if (counted && Number(counted.matched) >= stopWhen.count && RUNNING.includes(counted.status)) {
    await endBatch(ex, batchId, { status: 'stopped', stopReason: 'condition_met' }, now);
  }
}
