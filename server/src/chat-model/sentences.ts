// Cuts a reply's streamed text into pieces the voice can speak one after another, so speech starts while the model
// is still writing. A piece ends at a sentence's end: . ! ? … followed by whitespace (。！？ need none), but not at
// a decimal point, a title (Mr. Dr.), e.g./i.e., an initial (J. Smith) or a period followed by a lower-case word
// (9 a.m. tomorrow, etc. and so on). A clause that runs past LONG_CLAUSE characters may end at ; : or a comma.
// The first piece may be short, so the voice starts early; later ones gather sentences until they reach
// MIN_PIECE characters, since each piece costs the voice a request and a short one sounds clipped.
//
// Every decision waits for the characters it depends on, so text pushed a character at a time is cut exactly as
// text pushed whole.

/** A later piece holds at least this many characters, unless the reply ends. */
export const MIN_PIECE = 20;
/** From this many characters on, a clause mark ends the piece. */
export const LONG_CLAUSE = 120;

/** Ends a sentence when whitespace (or the end) follows. */
const STOPS = new Set(['.', '!', '?', '…']);
/** Ends a sentence whatever follows: CJK writing puts no space after a sentence. */
const WIDE_STOPS = new Set(['。', '！', '？', '｡']);
/** Ends a long clause when whitespace follows. */
const CLAUSE = new Set([';', ':', ',']);
const WIDE_CLAUSE = new Set(['；', '：', '，', '、']);
/** Closing quotes and brackets that belong to the sentence before them. */
const CLOSERS = new Set(['"', "'", ')', ']', '}', '»', '”', '’', '」', '』', '）', '】', '》']);
/** Opening marks stripped from the word before a period when checking it against ABBREVIATIONS. */
const OPENERS = /^["'([{«“‘]+/u;
/** Words whose period never ends a sentence, lower-case and without their final period. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'rev',
  'hon',
  'gen',
  'col',
  'capt',
  'lt',
  'sgt',
  'e.g',
  'i.e',
  'eg',
  'ie',
  'vs',
  'cf',
  'approx',
  'dept',
  'tel',
]);

const isSpace = (c: string): boolean => /\s/u.test(c);
const isLower = (c: string): boolean => c !== c.toUpperCase() && c === c.toLowerCase();

export class SentenceSplitter {
  private buffer = '';
  /** Where the current piece starts in the buffer. */
  private start = 0;
  /** Where scanning resumes: everything before it is decided. */
  private at = 0;
  private emitted = 0;

  /** Takes the next text of the reply; returns the pieces it completes, in order. */
  push(text: string): string[] {
    this.buffer += text;
    const pieces: string[] = [];
    while (this.at < this.buffer.length) {
      const cut = this.decide(this.at);
      if (cut === 'wait') break;
      if (cut.end !== null) {
        const piece = this.buffer.slice(this.start, cut.end).trim();
        if (piece && (this.emitted === 0 || piece.length >= MIN_PIECE)) {
          pieces.push(piece);
          this.emitted += 1;
          this.start = cut.end;
        }
      }
      this.at = cut.next;
    }
    // Decided text is dropped from the buffer so a long reply is not rescanned.
    if (this.start > 0) {
      this.buffer = this.buffer.slice(this.start);
      this.at -= this.start;
      this.start = 0;
    }
    return pieces;
  }

  /** The reply is complete: returns what is left, as one last piece (or none). */
  end(): string[] {
    const rest = this.buffer.slice(this.start).trim();
    this.buffer = '';
    this.start = 0;
    this.at = 0;
    this.emitted = 0;
    return rest ? [rest] : [];
  }

  /**
   * Whether a piece may end after the character at `i`: 'wait' when what decides it has not come yet; else where
   * the piece would end (null: not here) and where scanning goes on.
   */
  private decide(i: number): 'wait' | { end: number | null; next: number } {
    const b = this.buffer;
    const c = b[i];
    if (STOPS.has(c) || WIDE_STOPS.has(c)) {
      let j = i;
      while (j < b.length && (STOPS.has(b[j]) || WIDE_STOPS.has(b[j]))) j += 1;
      while (j < b.length && CLOSERS.has(b[j])) j += 1;
      if (j === b.length) return 'wait';
      if ([...b.slice(i, j)].some((ch) => WIDE_STOPS.has(ch))) return { end: j, next: j };
      if (!isSpace(b[j])) return { end: null, next: j };
      if (b.slice(i, j).startsWith('.') && !b.slice(i, j).startsWith('..')) {
        let k = j;
        while (k < b.length && isSpace(b[k])) k += 1;
        if (k === b.length) return 'wait';
        if (this.periodContinues(i, b[k])) return { end: null, next: j };
      }
      return { end: j, next: j };
    }
    if (CLAUSE.has(c) || WIDE_CLAUSE.has(c)) {
      if (i + 1 - this.start < LONG_CLAUSE) return { end: null, next: i + 1 };
      if (WIDE_CLAUSE.has(c)) return { end: i + 1, next: i + 1 };
      if (i + 1 === b.length) return 'wait';
      return { end: isSpace(b[i + 1]) ? i + 1 : null, next: i + 1 };
    }
    return { end: null, next: i + 1 };
  }

  /** Whether the single period at `i`, followed by whitespace and then `following`, is inside a sentence. */
  private periodContinues(i: number, following: string): boolean {
    if (isLower(following)) return true;
    let w = i;
    while (w > this.start && !isSpace(this.buffer[w - 1])) w -= 1;
    const word = this.buffer.slice(w, i).replace(OPENERS, '');
    if (ABBREVIATIONS.has(word.toLowerCase())) return true;
    // An initial: one capital letter, alone or after another initial (J. R. R. Tolkien, U.S.).
    return /^(?:\p{Lu}\.)*\p{Lu}$/u.test(word);
  }
}
