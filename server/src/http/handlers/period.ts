// A period of calls by their creation time, from the query's createdFrom (inclusive) and createdTo (exclusive), as
// listCalls and getStats take it. The validator has checked each is an RFC 3339 date-time; one Date cannot read
// (a leap second, 23:59:60) or a period that ends before it starts is 400 invalid_period.
import { ApiError } from '../../errors/api-error.js';

export interface Period {
  from: number | null;
  to: number | null;
}

function instant(name: string, text: unknown): number | null {
  if (text === undefined) return null;
  const ms = Date.parse(text as string);
  if (!Number.isFinite(ms)) throw new ApiError(400, 'invalid_period', `${name} is not a date-time this service can read.`);
  return ms;
}

export function periodOf(query: Record<string, unknown>): Period {
  const from = instant('createdFrom', query.createdFrom);
  const to = instant('createdTo', query.createdTo);
  if (from !== null && to !== null && to <= from) throw new ApiError(400, 'invalid_period', 'createdTo must be later than createdFrom.');
  return { from, to };
}
