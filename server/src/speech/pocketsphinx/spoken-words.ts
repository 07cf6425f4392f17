// English text as the words a listener hears, lower-case and spelled as the CMU pronouncing dictionary spells them:
// numbers, times, prices, ordinals, e-mail addresses and web addresses said the way espeak-ng's en-us voice says
// them (the sandbox's voice), so that the recogniser's language model and a word error rate both count the words
// actually spoken. It covers what the sandbox's English lines hold, not every way of writing English.

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ORDINAL_OF: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };

/** A whole number in words, US style as espeak-ng says it: no "and" (`120` → one hundred twenty). */
export function cardinal(n: number): string[] {
  if (!Number.isInteger(n) || n < 0 || n >= 1_000_000) throw new RangeError(`no words for ${n}`);
  if (n < 20) return [ONES[n]!];
  if (n < 100) return n % 10 === 0 ? [TENS[n / 10]!] : [TENS[Math.floor(n / 10)]!, ONES[n % 10]!];
  if (n < 1000) return [ONES[Math.floor(n / 100)]!, 'hundred', ...(n % 100 ? cardinal(n % 100) : [])];
  return [...cardinal(Math.floor(n / 1000)), 'thousand', ...(n % 1000 ? cardinal(n % 1000) : [])];
}

/** `21` → twenty first. */
export function ordinal(n: number): string[] {
  const words = cardinal(n);
  const last = words.pop()!;
  const said = ORDINAL_OF[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words, said];
}

/**
 * Digits as espeak-ng reads them: a number; with a decimal part, "point" and each digit; with leading zeros, a
 * "zero" for each, then what is left as a number when it has one or two digits and digit by digit when longer
 * (`020` → zero twenty, `0142` → zero one four two).
 */
export function digitsSaid(digits: string): string[] {
  const [whole = '', fraction] = digits.split('.');
  const zeros = /^0*/.exec(whole)![0].length;
  const rest = whole.slice(zeros);
  let words: string[];
  if (zeros === 0) words = cardinal(Number(whole));
  else if (zeros === whole.length) words = whole.length === 1 ? ['zero'] : Array(zeros).fill('zero');
  else words = [...Array(zeros).fill('zero'), ...(rest.length <= 2 ? cardinal(Number(rest)) : [...rest].map((d) => ONES[Number(d)]!))];
  return fraction === undefined ? words : [...words, 'point', ...[...fraction].map((d) => ONES[Number(d)]!)];
}

/** One letter as a word of the dictionary (`w` is spelled out there as it is said). */
function letter(ch: string): string {
  return ch.toLowerCase();
}

/** A host or mailbox: `www` letter by letter, dots as "dot". */
function address(text: string): string[] {
  return text
    .split('.')
    .filter(Boolean)
    .flatMap((part, i) => [...(i > 0 ? ['dot'] : []), ...(part.toLowerCase() === 'www' ? [...part].map(letter) : spokenWords(part))]);
}

const NUMERIC = /^\d+(?:\.\d+)?$/;

/** One whitespace-free token's words; `afterNumber` tells whether a number came just before it (`5 pm`). */
function token(raw: string, afterNumber: boolean): string[] {
  const t = raw
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/^[^\p{L}\p{N}$+']+/u, '')
    .replace(/[^\p{L}\p{N}]+$/u, '');
  if (!t) return [];
  const lower = t.toLowerCase();
  if (afterNumber && (lower === 'am' || lower === 'pm')) return [lower[0]!, 'm'];
  if (t.includes('@')) {
    const [box, host] = t.split('@');
    return [...address(box!), 'at', ...address(host!)];
  }
  let m = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (m) return [...cardinal(Number(m[1])), ...(m[2] === '00' ? ['zero', 'zero'] : digitsSaid(m[2]!))];
  m = /^\$(\d+(?:\.\d+)?)$/.exec(t);
  if (m) return ['dollar', ...digitsSaid(m[1]!)];
  m = /^(\d+)(st|nd|rd|th)$/i.exec(t);
  if (m) return ordinal(Number(m[1]));
  m = /^\+(\d+)$/.exec(t);
  if (m) return ['plus', ...digitsSaid(m[1]!)];
  if (NUMERIC.test(t)) return digitsSaid(t);
  m = /^(\d+)(\p{L})$/u.exec(t);
  if (m) return [...digitsSaid(m[1]!), letter(m[2]!)];
  if (/^\d+(?:-\d+)+$/.test(t)) return t.split('-').flatMap((part, i) => [...(i > 0 ? ['dash'] : []), ...digitsSaid(part)]);
  if (/\.\p{L}/u.test(t)) return address(t);
  // Hyphenated words are said as their parts; anything else that is not a letter, digit or apostrophe is a pause.
  return t
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** The words of `text` as spoken, lower-case. */
export function spokenWords(text: string): string[] {
  const out: string[] = [];
  let afterNumber = false;
  for (const raw of text.split(/\s+/)) {
    const said = token(raw, afterNumber);
    out.push(...said);
    if (said.length > 0) afterNumber = /\d$/.test(raw.replace(/[^\p{L}\p{N}]+$/u, ''));
  }
  return out;
}
