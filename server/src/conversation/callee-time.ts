// Today's date and the time where the callee is, as the agent is told them: read in the zones libphonenumber
// places the number in (numbers/number-time-zones.ts, the map calling windows use), in English, 24-hour.
import { numberTimeZones } from '../numbers/number-time-zones.js';

/** A number in more zones than this (a US toll-free number is in all of North America's) is given in UTC. */
const MAX_ZONES = 3;

function localTime(now: number, timeZone: string): string {
  const date = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(now);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(now);
  return `${date}, ${time}`;
}

/**
 * `Tuesday, 3 March 2026, 14:05 (Europe/Paris)`; for a number in two or three zones, each, joined with "or"; for
 * a number in more, or in none known, UTC, saying so.
 */
export function calleeTime(e164: string, now: number): string {
  const zones = numberTimeZones(e164);
  if (zones.length === 0) return `${localTime(now, 'UTC')} (UTC; the person's own time zone is not known)`;
  if (zones.length > MAX_ZONES) return `${localTime(now, 'UTC')} (UTC; the number is in ${zones.length} time zones, so the person's own is not known)`;
  return zones.map((z) => `${localTime(now, z)} (${z})`).join(' or ');
}
