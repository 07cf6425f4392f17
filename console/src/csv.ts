// A CSV file as RFC 4180 reads it, for a batch made from one: records of fields separated by commas, ended by CRLF
// (LF or CR alone accepted too, as spreadsheets on every system write them); a field holding a comma, a quote or a
// line break is quoted, its quotes doubled. A byte-order mark at the start is dropped, as is the line break ending
// the last record; blank lines are skipped. Malformed input is refused with its line, never guessed at: a quote in
// an unquoted field, text after a closing quote, or a quote left open. Our own (docs/decisions.md): sixty lines
// with tests beat a dependency for one format.

export type CsvResult = { ok: true; rows: string[][] } | { ok: false; line: number; message: string };

export function parseCsv(text: string): CsvResult {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
  // Whether the current record has begun: a blank line is no record.
  let started = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    if (started) rows.push(row);
    row = [];
    started = false;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === '"') {
      if (field !== '') return { ok: false, line, message: `Line ${line}: a quote inside a field that does not start with one; quote the whole field and double its quotes.` };
      started = true;
      const open = line;
      i++;
      for (;;) {
        if (i >= src.length) return { ok: false, line: open, message: `Line ${open}: a quoted field is never closed.` };
        const q = src[i];
        if (q === '"') {
          if (src[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n' || (q === '\r' && src[i + 1] !== '\n')) line++;
        field += q;
        i++;
      }
      const next = src[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')
        return { ok: false, line, message: `Line ${line}: text after a closing quote; a field is either quoted whole or not at all.` };
      // The quoted field is whole; a following comma or line break is read next. An empty quoted field stays ''.
      if (next === ',') {
        endField();
        i++;
        if (i >= src.length) endRow();
      }
      continue;
    }
    if (c === ',') {
      started = true;
      endField();
      i++;
      if (i >= src.length) endRow();
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRow();
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      continue;
    }
    started = true;
    field += c;
    i++;
  }
  if (started || field !== '') endRow();
  return { ok: true, rows };
}
