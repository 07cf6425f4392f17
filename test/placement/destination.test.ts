import { expect } from 'chai';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ALLOWED_REGIONS, checkDestination } from '../../server/src/placement/destination.js';
import { DEFAULT_IRSF_PATH, IrsfList } from '../../server/src/numbers/irsf.js';
import { ACCEPTED, BLOCKED, blockedMessage } from './destination-cases.js';

// No IRSF list, so each case is blocked by its own rule; the shipped list also covers +1876 and +870..+883.
const noIrsf = IrsfList.parse('');

describe('checkDestination', () => {
  it('allows exactly US, CA, GB, AU, NZ and IL', () => {
    expect(ALLOWED_REGIONS).to.deep.equal(['US', 'CA', 'GB', 'AU', 'NZ', 'IL']);
  });

  describe('the table agrees with libphonenumber', () => {
    for (const c of [...BLOCKED, ...ACCEPTED]) {
      it(`finds ${c.what} (${c.to}) valid, in region ${c.region ?? 'none'}`, () => {
        const n = parsePhoneNumberFromString(c.to);
        expect(n?.isValid()).to.equal(true);
        expect(n?.country ?? null).to.equal(c.region);
      });
    }
  });

  describe('blocks by region and type, not by calling code', () => {
    for (const c of BLOCKED) {
      it(`rejects ${c.what} with destination_blocked`, () => {
        expect(checkDestination(c.to, noIrsf)).to.deep.equal({ ok: false, token: 'destination_blocked', message: blockedMessage(c) });
      });
    }
  });

  describe('accepts every allowed country', () => {
    for (const c of ACCEPTED) {
      it(`accepts ${c.what} as region ${c.region}`, () => {
        expect(checkDestination(c.to, noIrsf)).to.deep.equal({ ok: true, e164: c.to, region: c.region });
      });
    }
  });

  it('rejects a number that is not valid for its country with invalid_number, before any guardrail', () => {
    const irsf = IrsfList.parse('+1');
    expect(checkDestination('+11234567890', irsf)).to.deep.equal({
      ok: false,
      token: 'invalid_number',
      message: '`to` is not a valid US number: +11234567890 has area code 123, and area codes start with 2 to 9.',
    });
  });

  it('rejects a number with spaces with invalid_number although libphonenumber could parse it', () => {
    expect(checkDestination('+1 212 555 0100', noIrsf)).to.include({ ok: false, token: 'invalid_number' });
  });

  it('blocks an IRSF-listed prefix inside an allowed country', () => {
    expect(checkDestination('+14165550123', IrsfList.parse('+1416555'))).to.deep.equal({
      ok: false,
      token: 'destination_blocked',
      message: 'Calls to +14165550123 are blocked: the number is in a range listed for revenue-share fraud.',
    });
  });

  it('accepts a number next to an IRSF-listed prefix', () => {
    expect(checkDestination('+14165560123', IrsfList.parse('+1416555'))).to.deep.equal({ ok: true, e164: '+14165560123', region: 'CA' });
  });

  it('blocks a Jamaica number through the shipped IRSF list as well', () => {
    const shipped = IrsfList.load(DEFAULT_IRSF_PATH);
    expect(checkDestination('+18762101234', shipped)).to.include({ ok: false, token: 'destination_blocked' });
    expect(shipped.matches('+18762101234')).to.equal(true);
  });

  it('lets every accepted number through the shipped IRSF list', () => {
    const shipped = IrsfList.load(DEFAULT_IRSF_PATH);
    for (const c of ACCEPTED) expect(checkDestination(c.to, shipped), c.to).to.deep.equal({ ok: true, e164: c.to, region: c.region });
  });
});
