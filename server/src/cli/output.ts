// Plain-text tables and times for the human-readable output; --json output is the data itself.
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Columns padded to their widest cell; an empty table prints `empty` instead. */
export function table(header: string[], rows: (string | number | null)[][], empty: string): string {
  if (rows.length === 0) return empty;
  const cells = [header, ...rows.map((r) => r.map((c) => (c === null ? '-' : String(c))))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}
