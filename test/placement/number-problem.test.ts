// Why a number is not valid E.164, as the API and the CLI say it: each sentence names the field as given, says
// one thing, and holds no regular expression; a valid number has no problem.
import { expect } from 'chai';
import { numberProblem } from '../../server/src/placement/number-problem.js';

describe('what is wrong with a number', () => {
  it('finds nothing wrong with valid numbers of several countries', () => {
    for (const n of ['+14155550123', '+442071234567', '+61212345678', '+972502345678', '+18765550123']) expect(numberProblem(n, '`to`'), n).to.equal(null);
  });

  const cases: [string, unknown, string][] = [
    ['a North American area code starting with 0', '+10125550123', '--caller-id is not a valid US number: +10125550123 has area code 012, and area codes start with 2 to 9.'],
    ['a number too long for +1', '+141555501234', '--caller-id is not a valid US number: +141555501234 has 11 digits after +1, and numbers there have 10 digits.'],
    ['a number too long for the UK', '+4479111234567', '--caller-id is not a valid UK number: +4479111234567 has 11 digits after +44, and numbers there have 7, 9 or 10 digits.'],
    ['a number of a network of no country', '+88212345', '--caller-id is not a valid +882 number: +88212345 has 5 digits after +882, and numbers there have 7, 8, 9, 10, 11 or 12 digits.'],
    ['a number in parentheses', '(415) 555-0123', '--caller-id must start with + and the country code (E.164), such as +14155550123; "(415) 555-0123" has no +.'],
    ['a number with letters after +', '+1415abc5550', '--caller-id must be + and the digits of the number, such as +14155550123; got "+1415abc5550".'],
    ['null', null, '--caller-id must be a phone number written as a string in E.164 format, such as "+14155550123".'],
  ];
  for (const [what, value, message] of cases) {
    it(`explains ${what}`, () => {
      expect(numberProblem(value, '--caller-id')).to.equal(message);
    });
  }
});
