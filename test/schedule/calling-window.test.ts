// The calling window's arithmetic, by the clock of the world: the zones a number is placed in (libphonenumber's
// data), the next opening in each allowed country, across the DST changes of 2026, and in numbers that span several
// zones (the window must be open in all of them). Times are written as UTC instants with the local time beside them.
import { expect } from 'chai';
import { applyWindow, nextOpening, type AppliedWindow } from '../../server/src/schedule/calling-window.js';
import { numberTimeZones } from '../../server/src/numbers/number-time-zones.js';
import { ApiError } from '../../server/src/errors/api-error.js';
import type { CallingWindow } from '../../server/src/generated/types.gen.js';

const at = (s: string) => Date.parse(s);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const opening = (window: CallingWindow, to: string, from: string) => iso(applyWindow(window, to, at(from)).opening);
const DAYTIME: CallingWindow = { start: '09:00', end: '20:00' };

function refusal(window: CallingWindow, to: string, from = '2026-12-01T00:00:00Z'): ApiError {
  try {
    applyWindow(window, to, at(from));
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('applyWindow accepted the window');
}

describe('calling windows: the zones of a number', () => {
  for (const [to, zones] of [
    ['+12125550123', ['America/New_York']],
    ['+14155550123', ['America/Los_Angeles']],
    ['+14165550123', ['America/Toronto']],
    ['+16045550123', ['America/Vancouver']],
    ['+442071234567', ['Europe/London']],
    ['+61255501234', ['Australia/Sydney']],
    ['+6495551234', ['Pacific/Auckland']],
    ['+97225551234', ['Asia/Jerusalem']],
    ['+12085550123', ['America/Boise', 'America/Los_Angeles']],
    ['+17095550123', ['America/Puerto_Rico', 'America/St_Johns']],
    ['+61891234567', ['Australia/Adelaide', 'Australia/Perth']],
  ] as const) {
    it(`places ${to} in ${zones.join(' and ')}`, () => {
      expect(numberTimeZones(to)).to.deep.equal(zones);
    });
  }

  it('places a US toll-free number in every zone of the North American plan (42, Guam to Newfoundland)', () => {
    const zones = numberTimeZones('+18005550123');
    expect(zones).to.have.length(42);
    expect(zones).to.include.members(['Pacific/Guam', 'Pacific/Pago_Pago', 'America/St_Johns', 'America/New_York', 'Pacific/Honolulu']);
  });
});

describe('calling windows: the next opening in each allowed country', () => {
  // 2026-12-01 is a Tuesday. From 03:00 UTC, a morning window (09:00-12:00) opens at each number's next 09:00 local.
  const MORNING: CallingWindow = { start: '09:00', end: '12:00' };
  for (const [country, to, expected] of [
    ['US', '+12125550123', '2026-12-01T14:00:00.000Z'], // 09:00 EST (UTC-5)
    ['US', '+14155550123', '2026-12-01T17:00:00.000Z'], // 09:00 PST (UTC-8)
    ['CA', '+14165550123', '2026-12-01T14:00:00.000Z'], // 09:00 EST
    ['CA', '+16045550123', '2026-12-01T17:00:00.000Z'], // 09:00 PST
    ['GB', '+442071234567', '2026-12-01T09:00:00.000Z'], // 09:00 GMT
    ['AU', '+61255501234', '2026-12-01T22:00:00.000Z'], // 09:00 AEDT (UTC+11) on Wednesday: 03:00 UTC is 14:00 there
    ['NZ', '+6495551234', '2026-12-01T20:00:00.000Z'], // 09:00 NZDT (UTC+13) on Wednesday
    ['IL', '+97225551234', '2026-12-01T07:00:00.000Z'], // 09:00 IST (UTC+2)
  ] as const) {
    it(`${country} ${to}: ${expected}`, () => {
      expect(opening(MORNING, to, '2026-12-01T03:00:00Z')).to.equal(expected);
    });
  }

  it("is now when the window is open now, in the callee's time (14:00 in Sydney is 03:00 UTC)", () => {
    expect(opening(DAYTIME, '+61255501234', '2026-12-01T03:00:00Z')).to.equal('2026-12-01T03:00:00.000Z');
  });

  it('skips the days not listed: from Friday 20:30 in New York, a weekday window opens Monday 09:00', () => {
    expect(opening({ ...DAYTIME, days: ['mon', 'tue', 'wed', 'thu', 'fri'] }, '+12125550123', '2026-12-05T01:30:00Z')).to.equal('2026-12-07T14:00:00.000Z');
  });

  it("reads the window in the timeZone given instead of the number's: a New York number in Tokyo hours", () => {
    expect(opening({ ...DAYTIME, timeZone: 'Asia/Tokyo' }, '+12125550123', '2026-12-01T12:00:00Z')).to.equal('2026-12-02T00:00:00.000Z');
  });

  it('takes 24:00 as midnight: 18:00 to 24:00 is open at 23:59 local and shut at midnight', () => {
    const w = applyWindow({ start: '18:00', end: '24:00' }, '+442071234567', at('2026-12-01T00:00:00Z')).window;
    expect(iso(nextOpening(w, at('2026-12-01T23:59:00Z')))).to.equal('2026-12-01T23:59:00.000Z');
    expect(iso(nextOpening(w, at('2026-12-02T00:00:00Z')))).to.equal('2026-12-02T18:00:00.000Z');
  });
});

describe('calling windows across DST changes', () => {
  it('New York springs forward: from Saturday 21:00 EST, Sunday 09:00 is EDT, 13:00 UTC (not 14:00)', () => {
    expect(opening(DAYTIME, '+12125550123', '2026-03-08T02:00:00Z')).to.equal('2026-03-08T13:00:00.000Z');
  });

  it('New York falls back: from Saturday 21:00 EDT, Sunday 09:00 is EST, 14:00 UTC (not 13:00)', () => {
    expect(opening(DAYTIME, '+12125550123', '2026-11-01T01:00:00Z')).to.equal('2026-11-01T14:00:00.000Z');
  });

  it('a window inside the spring-forward gap (02:00-03:00) does not open that day, and opens the next', () => {
    expect(opening({ start: '02:00', end: '03:00' }, '+12125550123', '2026-03-08T05:00:00Z')).to.equal('2026-03-09T06:00:00.000Z');
  });

  it('a window starting in the gap (02:30-05:00) opens as far past the gap as its start was into it: 03:30 EDT', () => {
    expect(opening({ start: '02:30', end: '05:00' }, '+12125550123', '2026-03-08T05:00:00Z')).to.equal('2026-03-08T07:30:00.000Z');
  });

  it('a window on the repeated hour of the fall-back (01:00-02:00) is open for both of its passes, two hours in all', () => {
    const w = applyWindow({ start: '01:00', end: '02:00' }, '+12125550123', at('2026-10-31T00:00:00Z')).window;
    expect(iso(nextOpening(w, at('2026-11-01T04:00:00Z')))).to.equal('2026-11-01T05:00:00.000Z'); // 01:00 EDT
    expect(iso(nextOpening(w, at('2026-11-01T06:30:00Z')))).to.equal('2026-11-01T06:30:00.000Z'); // 01:30 EST, the second pass
    expect(iso(nextOpening(w, at('2026-11-01T07:00:00Z')))).to.equal('2026-11-02T06:00:00.000Z'); // 02:00 EST: shut until Monday 01:00 EST
  });

  it('London springs forward on 29 March: 09:00 is 09:00 UTC on Saturday and 08:00 UTC on Sunday', () => {
    expect(opening(DAYTIME, '+442071234567', '2026-03-28T00:00:00Z')).to.equal('2026-03-28T09:00:00.000Z');
    expect(opening(DAYTIME, '+442071234567', '2026-03-28T21:00:00Z')).to.equal('2026-03-29T08:00:00.000Z');
  });

  it('Sydney falls back on 5 April and springs forward on 4 October (southern seasons)', () => {
    expect(opening(DAYTIME, '+61255501234', '2026-04-04T10:00:00Z')).to.equal('2026-04-04T23:00:00.000Z'); // Sunday 09:00 AEST (UTC+10)
    expect(opening(DAYTIME, '+61255501234', '2026-10-03T10:00:00Z')).to.equal('2026-10-03T22:00:00.000Z'); // Sunday 09:00 AEDT (UTC+11)
  });
});

describe('calling windows in numbers spanning several zones: open in all of them at once', () => {
  it('Idaho (+1 208, Boise and Los Angeles): 09:00-20:00 is 09:00 Pacific to 20:00 Mountain, 19:00 Pacific', () => {
    // 09:00 PST is 17:00 UTC (10:00 in Boise); 20:00 MST is 03:00 UTC, the close.
    expect(opening(DAYTIME, '+12085550123', '2026-12-01T12:00:00Z')).to.equal('2026-12-01T17:00:00.000Z');
    expect(opening(DAYTIME, '+12085550123', '2026-12-02T02:59:00Z')).to.equal('2026-12-02T02:59:00.000Z');
    expect(opening(DAYTIME, '+12085550123', '2026-12-02T03:00:00Z')).to.equal('2026-12-02T17:00:00.000Z');
  });

  it("Newfoundland's +1 709 (St John's and Puerto Rico): the later of the two 09:00s, 13:00 UTC", () => {
    // St John's is UTC-3:30 in December, Puerto Rico UTC-4 all year: 09:00 in Puerto Rico is 13:00 UTC.
    expect(opening(DAYTIME, '+17095550123', '2026-12-01T10:00:00Z')).to.equal('2026-12-01T13:00:00.000Z');
  });

  it("Western Australia's 08 (Adelaide and Perth) across Adelaide's DST: Perth opens last, and Adelaide closes first", () => {
    // July (no DST): Adelaide UTC+9:30, Perth UTC+8. Open 01:00 UTC (09:00 Perth) to 10:30 UTC (20:00 Adelaide).
    expect(opening(DAYTIME, '+61891234567', '2026-07-01T00:00:00Z')).to.equal('2026-07-01T01:00:00.000Z');
    expect(opening(DAYTIME, '+61891234567', '2026-07-01T10:29:00Z')).to.equal('2026-07-01T10:29:00.000Z');
    expect(opening(DAYTIME, '+61891234567', '2026-07-01T10:30:00Z')).to.equal('2026-07-02T01:00:00.000Z');
    // December (Adelaide on DST, UTC+10:30): Adelaide now closes at 09:30 UTC.
    expect(opening(DAYTIME, '+61891234567', '2026-12-01T09:30:00Z')).to.equal('2026-12-02T01:00:00.000Z');
  });

  it('a US toll-free number: 09:00-20:00 is open only from 09:00 in Guam to 20:00 in Newfoundland, 23:00 to 23:30 UTC', () => {
    expect(opening(DAYTIME, '+18005550123', '2026-12-01T00:00:00Z')).to.equal('2026-12-01T23:00:00.000Z');
    expect(opening(DAYTIME, '+18005550123', '2026-12-01T23:29:00Z')).to.equal('2026-12-01T23:29:00.000Z');
    expect(opening(DAYTIME, '+18005550123', '2026-12-01T23:30:00Z')).to.equal('2026-12-02T23:00:00.000Z');
  });

  it("refuses a window never open in all of a number's zones, naming them", () => {
    const err = refusal({ start: '09:00', end: '10:00' }, '+18005550123');
    expect([err.status, err.token]).to.deep.equal([400, 'invalid_calling_window']);
    expect(err.message).to.equal(
      "The window 09:00-10:00 is never open in all of +18005550123's time zones at once (42 zones, America/Adak to Pacific/Saipan); widen it or give `callingWindow.timeZone`.",
    );
    expect(refusal({ start: '09:00', end: '09:30' }, '+61891234567').message).to.contain('(Australia/Adelaide, Australia/Perth)');
  });
});

describe('calling windows that are refused', () => {
  for (const [what, window, message] of [
    ['an end before the start', { start: '20:00', end: '09:00' }, '`callingWindow.end` must be later than `start` on the same day (20:00 to 09:00 is empty); 24:00 is the end of the day.'],
    ['an empty window', { start: '09:00', end: '09:00' }, '`callingWindow.end` must be later than `start` on the same day (09:00 to 09:00 is empty); 24:00 is the end of the day.'],
    ['an unknown zone', { ...DAYTIME, timeZone: 'Mars/Olympus_Mons' }, '`callingWindow.timeZone` must be an IANA time zone name like America/New_York; got "Mars/Olympus_Mons".'],
  ] as const) {
    it(`refuses ${what} with 400 invalid_calling_window`, () => {
      const err = refusal(window as CallingWindow, '+12125550123');
      expect([err.status, err.token, err.message]).to.deep.equal([400, 'invalid_calling_window', message]);
    });
  }

  it('an applied window keeps the days in week order and the zone given, spelled as IANA spells it', () => {
    const w: AppliedWindow = applyWindow({ ...DAYTIME, days: ['fri', 'mon'], timeZone: 'europe/london' }, '+12125550123', at('2026-12-01T00:00:00Z')).window;
    expect(w).to.deep.equal({ start: '09:00', end: '20:00', days: ['mon', 'fri'], timeZone: 'Europe/London', zones: ['Europe/London'] });
  });
});
