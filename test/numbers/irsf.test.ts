import { expect } from 'chai';
import { DEFAULT_IRSF_PATH, IrsfList } from '../../server/src/numbers/irsf.js';

describe('IrsfList', () => {
  it('reads one prefix a line, ignoring comments, trailing comments, blank lines and surrounding spaces', () => {
    const list = IrsfList.parse('# header\n\n+53   # Cuba\n   +1876\t\n\t\n# +44 would be a comment\n+882\n');
    expect(list.size).to.equal(3);
    expect(list.matches('+5371234567')).to.equal(true);
    expect(list.matches('+18762101234')).to.equal(true);
    expect(list.matches('+882161234567')).to.equal(true);
    expect(list.matches('+447400123456')).to.equal(false);
  });

  it('accepts Windows line endings', () => {
    expect(IrsfList.parse('+53\r\n+1876\r\n').size).to.equal(2);
  });

  it('counts a prefix listed twice once', () => {
    expect(IrsfList.parse('+53\n+53 # again\n').size).to.equal(1);
  });

  it('is empty for an empty text and matches nothing', () => {
    const list = IrsfList.parse('');
    expect(list.size).to.equal(0);
    expect(list.matches('+14165550123')).to.equal(false);
  });

  it('matches a number only when a listed prefix starts it', () => {
    const list = IrsfList.parse('+1416555');
    expect(list.matches('+14165550123')).to.equal(true);
    expect(list.matches('+14165560123')).to.equal(false);
    expect(list.matches('+1416')).to.equal(false);
    expect(list.matches('+2141655501')).to.equal(false);
  });

  it('matches a number equal to a listed 15-digit prefix', () => {
    expect(IrsfList.parse('+123456789012345').matches('+123456789012345')).to.equal(true);
  });

  const malformed: [string, string, string][] = [
    ['a prefix without +', '+53\n\n1876\n', 'IRSF list line 3: "1876" is not a + followed by 1 to 15 digits'],
    ['a prefix with spaces', '# list\n+44 1534\n', 'IRSF list line 2: "+44 1534" is not a + followed by 1 to 15 digits'],
    ['a + alone', '+', 'IRSF list line 1: "+" is not a + followed by 1 to 15 digits'],
    ['a prefix of 16 digits', '+53\r\n+1234567890123456\r\n', 'IRSF list line 2: "+1234567890123456" is not a + followed by 1 to 15 digits'],
    ['a prefix with a dash', '+53\n+1-876 # Jamaica\n', 'IRSF list line 2: "+1-876" is not a + followed by 1 to 15 digits'],
  ];
  for (const [what, text, message] of malformed) {
    it(`throws on ${what}, naming the line number`, () => {
      expect(() => IrsfList.parse(text)).to.throw(Error, message);
    });
  }

  it('loads the shipped list, which blocks the satellite and international networks', () => {
    const shipped = IrsfList.load(DEFAULT_IRSF_PATH);
    expect(shipped.size).to.be.greaterThan(50);
    for (const n of ['+870773111632', '+881612345678', '+882161234567', '+883140001234']) expect(shipped.matches(n), n).to.equal(true);
  });
});
