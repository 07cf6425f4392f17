// Calling windows: the hours, in the callee's own time, in which a call may be dialled. The one place the rule is
// written: which zones a window is read in (the request's timeZone, else every zone libphonenumber places the
// number in), and when it next opens in all of them. The placement schedules a call at the next opening, a redial
// is moved to it, and the engine asks again before every dial, so a call is never dialled outside its window
// whatever the queue, a restart or an outage did to its timing.
import { Temporal } from 'temporal-polyfill';
import { ApiError } from '../errors/api-error.js';
import type { CallingWindow, Weekday } from '../generated/types.gen.js';
import { numberTimeZones } from '../numbers/number-time-zones.js';

export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A window as a call carries it: its hours, its days, the zone given with it (if any) and the zones it is read in. */
export interface AppliedWindow {
  start: string;
  end: string;
  days: Weekday[];
  timeZone?: string;
  zones: string[];
}

/** How far past its start a window must open: a week, and a day more for a DST change. */
const SEARCH_MS = 8 * 24 * 3600_000;

const invalid = (message: string) => new ApiError(400, 'invalid_calling_window', message);

/** Zone names as given, to their spelling (null for unknown): building a formatter to ask costs far more than a lookup. */
const spelled = new Map<string, string | null>();
/** How many names `spelled` keeps: IANA has ~600 zones; names past it are asked afresh rather than kept. */
const SPELLED_MAX = 2000;

/** An IANA time zone name as this runtime spells it (america/new_york is America/New_York); null for one it does not know. */
function knownZone(zone: string): string | null {
  const known = spelled.get(zone);
  if (known !== undefined) return known;
  let name: string | null;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    name = null;
  }
  if (spelled.size < SPELLED_MAX) spelled.set(zone, name);
  return name;
}

/** The minutes since local midnight of "HH:MM" (24:00 is the end of the day). */
const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * A window whose shape the schema has checked, checked for what the schema cannot say: throws 400
 * invalid_calling_window for one that ends before it starts or names an unknown zone. Returns it with its days in
 * week order (all of them when absent) and its zone as IANA spells it; the placement and `svc keys` share it.
 */
export function checkWindow(window: CallingWindow): Required<Pick<CallingWindow, 'start' | 'end' | 'days'>> & Pick<CallingWindow, 'timeZone'> {
  if (minutesOf(window.end) <= minutesOf(window.start)) {
    throw invalid(`\`callingWindow.end\` must be later than \`start\` on the same day (${window.start} to ${window.end} is empty); 24:00 is the end of the day.`);
  }
  const zone = window.timeZone === undefined ? undefined : knownZone(window.timeZone);
  if (zone === null) {
    throw invalid(`\`callingWindow.timeZone\` must be an IANA time zone name like America/New_York; got ${JSON.stringify(window.timeZone)}.`);
  }
  const days = window.days ? WEEKDAYS.filter((d) => window.days!.includes(d)) : [...WEEKDAYS];
  return { start: window.start, end: window.end, days, ...(zone !== undefined ? { timeZone: zone } : {}) };
}

/**
 * The window a call to `e164` carries, from the request's (or the key's) callingWindow (see checkWindow), read in
 * its timeZone or else in every zone of the number, and its first opening at or after `from`; 400
 * invalid_calling_window also when it never opens in all of them within a week of `from`.
 */
export function applyWindow(window: CallingWindow, e164: string, from: number): { window: AppliedWindow; opening: number } {
  const checked = checkWindow(window);
  const zones = checked.timeZone !== undefined ? [checked.timeZone] : numberTimeZones(e164).filter((z) => knownZone(z) !== null);
  if (zones.length === 0) throw invalid(`No time zone is known for ${e164}; give \`callingWindow.timeZone\`.`);
  const applied: AppliedWindow = { ...checked, zones };
  const opening = nextOpening(applied, from);
  if (opening === null) {
    const named = zones.length <= 4 ? zones.join(', ') : `${zones.length} zones, ${zones[0]} to ${zones[zones.length - 1]}`;
    throw invalid(`The window ${window.start}-${window.end} is never open in all of ${e164}'s time zones at once (${named}); widen it or give \`callingWindow.timeZone\`.`);
  }
  return { window: applied, opening };
}

/**
 * The earliest time at or after `from` when the window is open in every one of its zones; null when there is none
 * within a week (and a day) of `from`. Each zone is asked for its own next opening, and the latest of those is the
 * next candidate: every moment skipped has a zone in which the window is shut, so the first moment all agree on is
 * the answer.
 */
export function nextOpening(w: AppliedWindow, from: number): number | null {
  const limit = from + SEARCH_MS;
  let t = from;
  for (;;) {
    let latest = t;
    for (const zone of w.zones) {
      const at = openingIn(w, zone, t);
      if (at === null) return null;
      if (at > latest) latest = at;
    }
    if (latest === t) return t;
    if (latest > limit) return null;
    t = latest;
  }
}

/**
 * The earliest time at or after `t` when the window is open in `zone`; null within 15 days. A day's window runs from
 * its start to its end as wall-clock times in the zone, each read as Temporal's 'compatible' disambiguation (RFC
 * 5545's rule) reads it: a time the spring-forward skips is the moment as far past the gap as it was into it, and a
 * time the fall-back repeats is its first occurrence. So a window inside the skipped hour does not open that day,
 * and one on the repeated hour is open for both of its passes.
 */
function openingIn(w: AppliedWindow, zone: string, t: number): number | null {
  const today = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone).toPlainDate();
  // Windows end by midnight, so none is still open from yesterday: from today, over two weeks, so that a day whose
  // window a DST change swallowed is passed over.
  for (let i = 0; i < 15; i++) {
    const day = today.add({ days: i });
    if (!w.days.includes(WEEKDAYS[day.dayOfWeek - 1]!)) continue;
    const opens = instantOf(day, w.start, zone);
    const closes = w.end === '24:00' ? instantOf(day.add({ days: 1 }), '00:00', zone) : instantOf(day, w.end, zone);
    if (closes > opens && closes > t) return Math.max(opens, t);
  }
  return null;
}

/** The epoch ms at which the wall clock in `zone` reads `hhmm` on `day` (see openingIn for the DST rule). */
function instantOf(day: Temporal.PlainDate, hhmm: string, zone: string): number {
  const time = { hour: Number(hhmm.slice(0, 2)), minute: Number(hhmm.slice(3, 5)) };
  return day.toPlainDateTime(time).toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds;
}

/** The window as the wire shows it: hours, days in week order, and the zone given with it. */
export function windowOnWire(w: AppliedWindow): CallingWindow {
  return { start: w.start, end: w.end, days: w.days, ...(w.timeZone !== undefined ? { timeZone: w.timeZone } : {}) };
}

/** The record's timeZone: the one zone the window is read in, or null when the number spans several. */
export const singleZone = (w: AppliedWindow): string | null => (w.zones.length === 1 ? w.zones[0]! : null);
