// Reads one spoken answer as a value of the declared type, with a language's answer vocabulary. Anything that says
// "don't know", or does not carry a value of the type, reads as null.
import type { AnswerVocabulary } from '../conversation/lexicon.js';
import type { FieldType } from '../conversation/field-label.js';

export function normalise(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An alternation that prefers the longest phrase, matched whole-word. */
function alternation(phrases: readonly string[]): string {
  return [...phrases]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
}

interface Patterns {
  numberWord: RegExp | null;
  interjection: RegExp;
  leadIn: RegExp;
}

/** Compiled once per vocabulary: the analyst reads every answer of every call with the same few. */
const compiled = new WeakMap<AnswerVocabulary, Patterns>();

function patterns(vocabulary: AnswerVocabulary): Patterns {
  let p = compiled.get(vocabulary);
  if (!p) {
    p = {
      numberWord: vocabulary.numberWords.length ? new RegExp(`(?<![\\p{L}\\p{M}-])(${alternation(vocabulary.numberWords)})(?![\\p{L}\\p{M}-])`, 'iu') : null,
      interjection: new RegExp(`^(?:${alternation(vocabulary.interjections)})\\s*[,.…!]+\\s*`, 'iu'),
      leadIn: new RegExp(`^(?:${alternation(vocabulary.leadIns)})\\s+`, 'iu'),
    };
    compiled.set(vocabulary, p);
  }
  return p;
}

function saysDontKnow(text: string, vocabulary: AnswerVocabulary): boolean {
  const t = normalise(text).toLowerCase();
  return vocabulary.dontKnow.some((phrase) => t.includes(phrase));
}

/** The first decisive word wins: "No, I'm afraid not" is no, "Yes, we are" yes, "Absolutely not" no. */
function readBoolean(text: string, vocabulary: AnswerVocabulary): boolean | null {
  const words =
    normalise(text)
      .toLowerCase()
      .match(/[\p{L}\p{M}']+/gu) ?? [];
  for (let i = 0; i < words.length; i += 1) {
    if (vocabulary.no.includes(words[i])) return false;
    if (vocabulary.yes.includes(words[i])) {
      const next = vocabulary.joiners.includes(words[i + 1]) ? words[i + 2] : words[i + 1];
      return !vocabulary.negatorsAfterYes.includes(next);
    }
  }
  return null;
}

/** Digits with `.` or `,` separators: thousands groups when they fit the language's habit, else a decimal point. */
function readDigits(token: string, decimalSeparator: '.' | ','): number {
  const separators = token.match(/[.,]/g) ?? [];
  if (separators.length === 0) return Number(token);
  const thousands = decimalSeparator === '.' ? ',' : '.';
  const groups = token.split(/[.,]/);
  if (separators.every((s) => s === thousands) && groups.slice(1).every((g) => g.length === 3)) return Number(groups.join(''));
  const last = Math.max(token.lastIndexOf('.'), token.lastIndexOf(','));
  return Number(`${token.slice(0, last).replace(/[.,]/g, '')}.${token.slice(last + 1)}`);
}

/** The first number in the reply, in digits or as a number word (zero to twenty). */
function readNumber(text: string, vocabulary: AnswerVocabulary): number | null {
  const t = normalise(text);
  const digits = /\d+(?:[.,]\d+)*/.exec(t);
  const words = patterns(vocabulary).numberWord?.exec(t) ?? null;
  if (words && (!digits || words.index < digits.index)) return vocabulary.numberWords.indexOf(words[1].toLowerCase());
  return digits ? readDigits(digits[0], vocabulary.decimalSeparator) : null;
}

/** The value part of the reply: without leading interjections ("Well,"), lead-ins ("It's") and closing punctuation. */
function readString(text: string, vocabulary: AnswerVocabulary): string | null {
  const { interjection, leadIn } = patterns(vocabulary);
  let value = normalise(text);
  for (let before = ''; before !== value; ) {
    before = value;
    value = value.replace(interjection, '');
  }
  value = value.replace(leadIn, '').replace(/[\s.!…]+$/u, '');
  return value || null;
}

export function readAnswer(text: string, type: FieldType, vocabulary: AnswerVocabulary): string | number | boolean | null {
  if (saysDontKnow(text, vocabulary)) return null;
  if (type === 'boolean') return readBoolean(text, vocabulary);
  if (type === 'number') return readNumber(text, vocabulary);
  return readString(text, vocabulary);
}
