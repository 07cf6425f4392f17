// What the pocketsphinx adapter listens for: English text turned into the words espeak-ng says (each expectation
// below is what espeak-ng's en-us voice was heard to say, read from its phoneme output), and an ARPA n-gram model
// whose probabilities, backoff included, add up to one after every history.
import { expect } from 'chai';
import { EN } from '../../server/src/conversation/lexicon-en.js';
import { calleeSentences, ngramArpa, restrictDictionary } from '../../server/src/speech/pocketsphinx/sandbox-language-model.js';
import { cardinal, ordinal, spokenWords } from '../../server/src/speech/pocketsphinx/spoken-words.js';

const said = (text: string) => spokenWords(text).join(' ');

describe('spoken words', () => {
  it('says whole numbers as espeak-ng does, without "and"', () => {
    expect(cardinal(0)).to.deep.equal(['zero']);
    expect(cardinal(15)).to.deep.equal(['fifteen']);
    expect(cardinal(40)).to.deep.equal(['forty']);
    expect(cardinal(120).join(' ')).to.equal('one hundred twenty');
    expect(cardinal(200).join(' ')).to.equal('two hundred');
    expect(cardinal(7946).join(' ')).to.equal('seven thousand nine hundred forty six');
    expect(() => cardinal(1.5)).to.throw(RangeError);
  });

  it('says ordinals', () => {
    expect(ordinal(3)).to.deep.equal(['third']);
    expect(ordinal(12)).to.deep.equal(['twelfth']);
    expect(ordinal(14)).to.deep.equal(['fourteenth']);
    expect(ordinal(21).join(' ')).to.equal('twenty first');
    expect(ordinal(30)).to.deep.equal(['thirtieth']);
    expect(said('the 21st of October')).to.equal('the twenty first of october');
    expect(said('June 14th')).to.equal('june fourteenth');
  });

  it('says decimals digit by digit after "point", and leading zeros one by one', () => {
    expect(said('45.3')).to.equal('forty five point three');
    expect(said('100.5')).to.equal('one hundred point five');
    expect(said('020')).to.equal('zero twenty');
    expect(said('0142')).to.equal('zero one four two');
    expect(said('007')).to.equal('zero zero seven');
  });

  it('says times, prices and phone numbers', () => {
    expect(said('5:30 pm')).to.equal('five thirty p m');
    expect(said('12:00 pm')).to.equal('twelve zero zero p m');
    expect(said('5:05 pm')).to.equal('five zero five p m');
    expect(said("It's 10:30 am.")).to.equal("it's ten thirty a m");
    expect(said('9 am to 5 pm')).to.equal('nine a m to five p m');
    expect(said('I am here')).to.equal('i am here');
    expect(said('$49.99 a month')).to.equal('dollar forty nine point nine nine a month');
    expect(said('$120 per night')).to.equal('dollar one hundred twenty per night');
    expect(said('+1 555 0142')).to.equal('plus one five hundred fifty five zero one four two');
    expect(said('555-0199')).to.equal('five hundred fifty five dash zero one nine nine');
    expect(said('020 7946 0958')).to.equal('zero twenty seven thousand nine hundred forty six zero nine five eight');
  });

  it('says addresses and names, keeping apostrophes and dropping punctuation', () => {
    expect(said('221B Baker Street')).to.equal('two hundred twenty one b baker street');
    expect(said('info@example.com')).to.equal('info at example dot com');
    expect(said('That would be www.example.org.')).to.equal('that would be w w w dot example dot org');
    expect(said("Let me see... it's James O\u2019Brien.")).to.equal("let me see it's james o'brien");
    expect(said('Let me think... 7.')).to.equal('let me think seven');
    expect(said('Quick yes-or-no question')).to.equal('quick yes or no question');
  });
});

/** p(word | history) from an ARPA text, backing off as a decoder does. */
function arpaModel(arpa: string): { vocabulary: string[]; p: (history: string[], word: string) => number } {
  const entries = new Map<string, { logp: number; bow: number }>();
  let order = 0;
  for (const line of arpa.split('\n')) {
    const section = /^\\(\d)-grams:$/.exec(line);
    if (section) order = Number(section[1]);
    else if (line === '\\end\\') break;
    else if (order > 0 && line.trim()) {
      const parts = line.split(' ');
      const words = parts.slice(1, 1 + order);
      entries.set(words.join(' '), { logp: Number(parts[0]), bow: parts.length > 1 + order ? Number(parts[1 + order]) : 0 });
    }
  }
  const p = (history: string[], word: string): number => {
    const explicit = entries.get([...history, word].join(' '));
    if (explicit) return 10 ** explicit.logp;
    if (history.length === 0) return 0;
    return 10 ** (entries.get(history.join(' '))?.bow ?? 0) * p(history.slice(1), word);
  };
  const vocabulary = [...entries.keys()].filter((k) => !k.includes(' ') && k !== '<s>');
  return { vocabulary, p };
}

describe('sandbox language model', () => {
  const sentences = calleeSentences(EN);

  it('holds every callee line of the English lexicon, as spoken words', () => {
    const lines = sentences.map((s) => s.words.join(' '));
    expect(lines).to.include('good afternoon how can i help');
    expect(lines).to.include("i'm not interested");
    expect(lines).to.include('please stop calling me');
    // An ellipsis ends a sentence: espeak-ng pauses there, and the decoder may end an utterance.
    expect(lines).to.include('let me see');
    expect(lines).to.include("it's dollar forty nine point nine nine a month");
    expect(lines).to.include('roughly seventy six point eight minutes i think');
    expect(lines).to.include('about two hundred');
    expect(lines).to.include('that would be the twenty first of october');
    // Number templates count as much as 20 other sentences, however many numbers fill them.
    const about = sentences.filter((s) => s.words[0] === 'about' && s.words.at(-1) !== 'hours' && !['minutes', 'days', 'dollars', 'percent', 'people'].includes(s.words.at(-1)!));
    expect(about.reduce((sum, s) => sum + s.weight, 0)).to.be.closeTo(20, 1e-9);
  });

  it('writes an ARPA trigram model whose probabilities add up to one after any history', () => {
    const arpa = ngramArpa(sentences);
    expect(arpa).to.match(/^\\data\\\nngram 1=\d+\nngram 2=\d+\nngram 3=\d+\n\n\\1-grams:\n-99 <s> /);
    expect(arpa.endsWith('\n\\end\\\n')).to.equal(true);
    const { vocabulary, p } = arpaModel(arpa);
    for (const history of [['<s>'], ['<s>', 'good'], ['how', 'can'], ['about'], ['point', 'nine'], ['it', 'cohen'], ['zebra']]) {
      const total = vocabulary.reduce((sum, w) => sum + p(history, w), 0);
      expect(total, history.join(' ')).to.be.closeTo(1, 0.002);
    }
    expect(p(['how', 'can'], 'i')).to.be.greaterThan(0.9);
    expect(p(['can', 'i'], 'help')).to.be.greaterThan(p(['can', 'i'], 'do'));
  });

  it('keeps the dictionary to the words wanted, with alternates, and says what it lacks', () => {
    const dictionary = 'hello HH AH L OW\nhello(2) HH EH L OW\nhelp HH EH L P\nworld W ER L D\n';
    const { text, missing } = restrictDictionary(dictionary, new Set(['hello', 'priya', 'zork']), { priya: 'P R IY Y AH' });
    expect(text).to.equal('hello HH AH L OW\nhello(2) HH EH L OW\npriya P R IY Y AH\n');
    expect(missing).to.deep.equal(['zork']);
  });
});
