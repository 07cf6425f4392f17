// The console's CSV reader (console/src/csv.ts): RFC 4180's records and quoting, the line breaks of every system,
// and malformed input refused with its line.
import { expect } from 'chai';
import { parseCsv } from '../../console/src/csv.js';

describe("the console's CSV reader", () => {
  const rows = (text: string) => {
    const r = parseCsv(text);
    if (!r.ok) throw new Error(r.message);
    return r.rows;
  };

  it('reads records of comma-separated fields ended by CRLF, LF or CR, the last line break optional', () => {
    expect(rows('to,name\r\n+14155550123,Ann\r\n')).to.deep.equal([
      ['to', 'name'],
      ['+14155550123', 'Ann'],
    ]);
    expect(rows('a,b\nc,d')).to.deep.equal([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(rows('a,b\rc,d\r')).to.deep.equal([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('keeps empty fields, at the start, the middle and the end of a record', () => {
    expect(rows(',x,\n,,\n')).to.deep.equal([
      ['', 'x', ''],
      ['', '', ''],
    ]);
    expect(rows('a,')).to.deep.equal([['a', '']]);
  });

  it('reads quoted fields holding commas, doubled quotes and line breaks of every kind', () => {
    expect(rows('"Smith, Ann","say ""hi""","line one\r\nline two"\n')).to.deep.equal([['Smith, Ann', 'say "hi"', 'line one\r\nline two']]);
    expect(rows('"",b\n""')).to.deep.equal([['', 'b'], ['']]);
    expect(rows('"a","b"')).to.deep.equal([['a', 'b']]);
    expect(rows('"a",')).to.deep.equal([['a', '']]);
  });

  it('drops a byte-order mark and skips blank lines', () => {
    expect(rows('\uFEFFto\n\n+14155550123\r\n\r\n')).to.deep.equal([['to'], ['+14155550123']]);
    expect(rows('')).to.deep.equal([]);
  });

  it('keeps spaces as they are: they are part of a field', () => {
    expect(rows(' a , b ')).to.deep.equal([[' a ', ' b ']]);
  });

  it('refuses a quote inside an unquoted field, text after a closing quote, and a quote left open, with their line', () => {
    expect(parseCsv('to\nab"c,d')).to.deep.equal({ ok: false, line: 2, message: 'Line 2: a quote inside a field that does not start with one; quote the whole field and double its quotes.' });
    expect(parseCsv('a\n"b"c')).to.deep.equal({ ok: false, line: 2, message: 'Line 2: text after a closing quote; a field is either quoted whole or not at all.' });
    expect(parseCsv('a\n"b\nc\n')).to.deep.equal({ ok: false, line: 2, message: 'Line 2: a quoted field is never closed.' });
  });

  it('counts lines inside quoted fields, so a later error names its own line', () => {
    expect(parseCsv('"x\ny",1\nz"\n')).to.deep.include({ ok: false, line: 3 });
  });
});
