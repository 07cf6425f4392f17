// The words pocketsphinx listens for: a bigram language model (ARPA text) and a pronouncing dictionary restricted
// to the words of what the sandbox's English callee says (every line of lexicon-en's callee, with its templates
// filled by every value the simulated callee draws) and the answer vocabulary the analyst reads. A bigram model
// rather than a grammar, because the decoder cuts utterances at pauses, wherever they fall in a line, and a model
// still scores a piece of a sentence where a grammar would force it into a whole one.
import type { Lexicon } from '../../conversation/lexicon.js';
import { cardinal, spokenWords } from './spoken-words.js';

export interface WeightedSentence {
  words: string[];
  /** How much it counts towards the model's statistics. */
  weight: number;
}

/**
 * How much all the fillings of one number template count together, against 1 for each other sentence: every
 * number from 0 to 200 and every decimal would otherwise drown the rest of the model in number words.
 */
const NUMBER_TEMPLATE_WEIGHT = 20;
/** Trigrams: enough context to tell "how can i help" from "i do go on", little enough to score a piece of a line. */
const ORDER = 3;
/** The share of each history's probability kept for the words never seen after it. */
const DISCOUNT = 0.01;
/** The share of the unigram probability spread evenly over the vocabulary. */
const UNIGRAM_FLOOR = 0.05;

function sentencesOf(line: string): string[] {
  return line.split(/(?<=[.?!])\s+/).filter((s) => s.trim());
}

/** Every number the simulated callee says: 0 to 200 and one-decimal values from 1.1 to 99.9 (spoken-answer.ts). */
function numbersSaid(): string[] {
  const out: string[] = [];
  for (let n = 0; n <= 200; n += 1) out.push(String(n));
  for (let n = 11; n < 1000; n += 1) if (n % 10 !== 0) out.push(String(n / 10));
  return out;
}

/** What a lexicon's callee can say, sentence by sentence, as spoken words. */
export function calleeSentences(lex: Lexicon): WeightedSentence[] {
  const out: WeightedSentence[] = [];
  const add = (text: string, weight = 1) => {
    for (const s of sentencesOf(text)) {
      const words = spokenWords(s);
      if (words.length > 0) out.push({ words, weight });
    }
  };
  const c = lex.callee;
  for (const line of [...c.hello, ...c.goAhead, ...c.noted, ...c.bye, ...c.optOut, ...c.question, ...c.answered, c.voicemailGreeting, ...c.dontKnow, ...c.yes, ...c.no, ...c.ramble]) add(line);
  const numbers = numbersSaid();
  const fill = (template: string, slots: Record<string, string>) => template.replace(/\{(\w)\}/g, (_, k: string) => slots[k] ?? '');
  for (const template of c.number) for (const n of numbers) add(fill(template, { n }), NUMBER_TEMPLATE_WEIGHT / numbers.length);
  for (const template of c.numberWithUnit) {
    for (const u of Object.values(c.units)) for (const n of numbers) add(fill(template, { n, u }), NUMBER_TEMPLATE_WEIGHT / numbers.length);
  }
  // Number words spoken alone ("seven.") come through the `{n}.` template; each is also a sentence of its own.
  for (let n = 0; n < lex.vocabulary.numberWords.length; n += 1) add(cardinal(n).join(' '));
  for (const values of Object.values(c.values)) {
    for (const v of values ?? []) {
      const templates = /^\p{Ll}/u.test(v) ? c.string.filter((t) => !t.startsWith('{v}')) : c.string;
      for (const template of templates) add(fill(template, { v }));
    }
  }
  const vocabulary = lex.vocabulary;
  for (const phrase of [...vocabulary.yes, ...vocabulary.no, ...vocabulary.dontKnow, ...vocabulary.interjections, ...vocabulary.leadIns, ...vocabulary.optOut]) add(phrase);
  return out;
}

const log10 = (p: number) => (p > 0 ? Math.log10(p).toFixed(4) : '-99');
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * An n-gram model in ARPA form. Each history keeps `discount` of its probability for the words never seen after
 * it, handed to the next shorter history by a backoff weight; the unigrams keep `floor` for a uniform share.
 * Proportional discounting, unlike Good-Turing or Kneser-Ney, works with the fractional counts of weighted
 * sentences and needs no count-of-counts.
 */
export function ngramArpa(sentences: readonly WeightedSentence[], order = ORDER, discount = DISCOUNT, floor = UNIGRAM_FLOOR): string {
  /** By order: history (words joined by spaces, empty for unigrams) → next word → count. */
  const counts = Array.from({ length: order + 1 }, () => new Map<string, Map<string, number>>());
  for (const { words, weight } of sentences) {
    const seq = ['<s>', ...words, '</s>'];
    for (let i = 1; i < seq.length; i += 1) {
      for (let n = 1; n <= order && i - n + 1 >= 0; n += 1) {
        const history = seq.slice(i - n + 1, i).join(' ');
        let next = counts[n]!.get(history);
        if (!next) counts[n]!.set(history, (next = new Map()));
        next.set(seq[i]!, (next.get(seq[i]!) ?? 0) + weight);
      }
    }
  }
  const unigrams = counts[1]!.get('')!;
  const vocabulary = [...unigrams.keys()].sort(byCode);
  const total = [...unigrams.values()].reduce((a, b) => a + b, 0);
  /** By order: n-gram (words joined by spaces) → probability; and each history's backoff weight. */
  const prob: Map<string, number>[] = [new Map(), new Map(vocabulary.map((w) => [w, (1 - floor) * (unigrams.get(w)! / total) + floor / vocabulary.length]))];
  const backoff = new Map<string, number>();
  for (let n = 2; n <= order; n += 1) {
    const p = new Map<string, number>();
    for (const [history, next] of counts[n]!) {
      const count = [...next.values()].reduce((a, b) => a + b, 0);
      const shorter = history.split(' ').slice(1).join(' ');
      let lowerSeen = 0;
      for (const [w, c] of next) {
        p.set(`${history} ${w}`, ((1 - discount) * c) / count);
        // A word seen after a history was seen after its shorter history too, so this lookup always finds it.
        lowerSeen += prob[n - 1]!.get(shorter ? `${shorter} ${w}` : w)!;
      }
      backoff.set(history, lowerSeen < 1 - 1e-9 ? discount / (1 - lowerSeen) : 1);
    }
    prob.push(p);
  }
  const sections: string[][] = [];
  for (let n = 1; n <= order; n += 1) {
    const keys = [...prob[n]!.keys()].sort(byCode);
    if (n === 1) keys.unshift('<s>');
    sections.push(
      keys.map((k) => {
        const logp = k === '<s>' ? '-99' : log10(prob[n]!.get(k)!);
        return n < order && backoff.has(k) ? `${logp} ${k} ${log10(backoff.get(k)!)}` : `${logp} ${k}`;
      }),
    );
  }
  return ['\\data\\', ...sections.map((lines, i) => `ngram ${i + 1}=${lines.length}`), ...sections.flatMap((lines, i) => ['', `\\${i + 1}-grams:`, ...lines]), '', '\\end\\', ''].join('\n');
}

/**
 * The lines of a CMU-format dictionary (`word PH ON ES`, alternates as `word(2) …`) for the words wanted, with
 * `extra` pronunciations for words it lacks, and the wanted words still without one.
 */
export function restrictDictionary(dictionary: string, wanted: ReadonlySet<string>, extra: Readonly<Record<string, string>> = {}): { text: string; missing: string[] } {
  const found = new Set<string>();
  const lines: string[] = [];
  for (const line of dictionary.split('\n')) {
    const word = line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, '');
    if (wanted.has(word)) {
      lines.push(line.trimEnd());
      found.add(word);
    }
  }
  for (const [word, phones] of Object.entries(extra)) {
    if (wanted.has(word) && !found.has(word)) {
      lines.push(`${word} ${phones}`);
      found.add(word);
    }
  }
  return { text: `${lines.join('\n')}\n`, missing: [...wanted].filter((w) => !found.has(w)).sort() };
}
