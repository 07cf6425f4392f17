// Where a body stops being JSON, as the invalid_json message tells the client.
import { expect } from 'chai';
import { whereJsonBreaks } from '../../server/src/contract/json-body.js';

describe('where a JSON body breaks', () => {
  const cases: [string, string][] = [
    ['{"to": x}', 'unexpected "x" at line 1, column 8'],
    ['{\n "a": 1\n "b": 2}', 'unexpected "\\"" at line 3, column 2'],
    ['{"a":1,}', 'unexpected "}" at line 1, column 8'],
    ['{"a":1} x', 'unexpected "x" at line 1, column 9'],
    ["{'to': '+14155550123'}", 'unexpected "\'" at line 1, column 2'],
    ['{"to": "+1415', 'it ends before the JSON value is complete'],
    ['[1,2', 'it ends before the JSON value is complete'],
    ['tru', 'it ends before the JSON value is complete'],
  ];
  for (const [text, where] of cases) {
    it(`${JSON.stringify(text)}: ${where}`, () => expect(whereJsonBreaks(text)).to.equal(where));
  }
});
