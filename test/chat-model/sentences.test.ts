import { expect } from 'chai';
import { LONG_CLAUSE, MIN_PIECE, SentenceSplitter } from '../../server/src/chat-model/sentences.js';
import { seededRandom } from '../../server/src/voice-agent/seeded-random.js';

/** Every piece of `text` pushed in the given slices, then end(). */
function split(slices: readonly string[]): string[] {
  const s = new SentenceSplitter();
  return [...slices.flatMap((t) => s.push(t)), ...s.end()];
}

/** `text` cut into slices of 1 to 9 characters, the same cuts for the same seed. */
function randomSlices(text: string, seed: string): string[] {
  const rng = seededRandom(seed);
  const chars = [...text];
  const slices: string[] = [];
  for (let i = 0; i < chars.length; ) {
    const n = 1 + rng.int(9);
    slices.push(chars.slice(i, i + n).join(''));
    i += n;
  }
  return slices;
}

const LONG = 'Sure. We have several options available for you this week, including the morning slot on Monday, the afternoon slot on Tuesday, the evening slot on Wednesday, and a late one on Friday.';

const CASES: Array<{ name: string; text: string; pieces: string[] }> = [
  {
    name: 'sentences ending in . ! ?',
    text: 'Hello! How can I help you today? I am calling about your order.',
    pieces: ['Hello!', 'How can I help you today?', 'I am calling about your order.'],
  },
  { name: 'short later sentences gathered until the piece is long enough', text: 'Hi. Sure. Okay. Let me check that for you now.', pieces: ['Hi.', 'Sure. Okay. Let me check that for you now.'] },
  { name: 'a decimal point', text: 'The fee is 3.5 dollars per item. Is that fine with you today?', pieces: ['The fee is 3.5 dollars per item.', 'Is that fine with you today?'] },
  { name: 'a number ending a sentence', text: 'Hi. The total comes to 42. Would you like to pay by card today?', pieces: ['Hi.', 'The total comes to 42.', 'Would you like to pay by card today?'] },
  {
    name: 'titles and e.g.',
    text: 'Hello. I am calling for Mr. Smith about Dr. Jones, e.g. the appointment. Thank you so much for your time.',
    pieces: ['Hello.', 'I am calling for Mr. Smith about Dr. Jones, e.g. the appointment.', 'Thank you so much for your time.'],
  },
  {
    name: 'initials',
    text: 'Yes. The manager is J. R. Tolkien and he is in the U.S. office today. Great.',
    pieces: ['Yes.', 'The manager is J. R. Tolkien and he is in the U.S. office today.', 'Great.'],
  },
  {
    name: 'a.m. and p.m.: a lower-case word goes on, a capital starts a sentence',
    text: 'Okay. We open at 9 a.m. tomorrow and close at 5 p.m. See you then, goodbye for now.',
    pieces: ['Okay.', 'We open at 9 a.m. tomorrow and close at 5 p.m.', 'See you then, goodbye for now.'],
  },
  { name: 'etc. before a capital', text: 'Hi. We sell bread, cakes, pies, etc. Anything else I can help with?', pieces: ['Hi.', 'We sell bread, cakes, pies, etc.', 'Anything else I can help with?'] },
  {
    name: 'runs of marks and an ellipsis',
    text: 'Really?! That is wonderful news… I will tell them right away... Thanks again.',
    pieces: ['Really?!', 'That is wonderful news…', 'I will tell them right away...', 'Thanks again.'],
  },
  { name: 'a closing quote stays with its sentence', text: 'She said "we are closed." Then she hung up the phone on me.', pieces: ['She said "we are closed."', 'Then she hung up the phone on me.'] },
  { name: 'a newline is whitespace', text: 'Hello there.\nHow are you doing today, my friend?', pieces: ['Hello there.', 'How are you doing today, my friend?'] },
  {
    name: 'a long clause ends at the first comma past LONG_CLAUSE characters',
    text: LONG,
    pieces: [
      'Sure.',
      'We have several options available for you this week, including the morning slot on Monday, the afternoon slot on Tuesday,',
      'the evening slot on Wednesday, and a late one on Friday.',
    ],
  },
  {
    name: 'CJK marks need no space after them',
    text: '你好。我想问一下你们周日营业吗？谢谢您的帮助，再见。',
    pieces: ['你好。', '我想问一下你们周日营业吗？谢谢您的帮助，再见。'],
  },
  { name: 'Hebrew', text: 'שלום! אני מתקשר בשם לקוח שלנו היום. האם אתם פתוחים ביום ראשון?', pieces: ['שלום!', 'אני מתקשר בשם לקוח שלנו היום.', 'האם אתם פתוחים ביום ראשון?'] },
  { name: 'no final mark', text: 'Thank you for calling', pieces: ['Thank you for calling'] },
  { name: 'a short last sentence is spoken when the reply ends', text: 'Thank you for all of that information. Bye.', pieces: ['Thank you for all of that information.', 'Bye.'] },
  { name: 'whitespace only', text: '  \n ', pieces: [] },
  { name: 'nothing', text: '', pieces: [] },
];

describe('sentence splitter', () => {
  it('keeps its bounds: later pieces of at least 20 characters, clauses past 120', () => {
    expect(MIN_PIECE).to.equal(20);
    expect(LONG_CLAUSE).to.equal(120);
  });

  for (const c of CASES) {
    it(`${c.name}: whole, a character at a time, and in random slices`, () => {
      expect(split([c.text]), 'whole').to.deep.equal(c.pieces);
      expect(split([...c.text]), 'by character').to.deep.equal(c.pieces);
      for (const seed of ['a', 'b', 'c']) expect(split(randomSlices(c.text, seed)), `slices ${seed}`).to.deep.equal(c.pieces);
    });
  }

  it('gives a piece as soon as what follows it decides it, not at the end', () => {
    const s = new SentenceSplitter();
    expect(s.push('Hello!')).to.deep.equal([]);
    expect(s.push(' How')).to.deep.equal(['Hello!']);
    expect(s.push(' are you doing today? I')).to.deep.equal(['How are you doing today?']);
    expect(s.end()).to.deep.equal(['I']);
  });

  it('waits on a period until the next word shows whether it ends the sentence', () => {
    const s = new SentenceSplitter();
    expect(s.push('We open at 9 a.m. ')).to.deep.equal([]);
    expect(s.push('t')).to.deep.equal([]);
    expect(s.push('omorrow. See')).to.deep.equal(['We open at 9 a.m. tomorrow.']);
  });

  it('starts afresh after end(): the next reply may open with a short piece', () => {
    const s = new SentenceSplitter();
    expect([...s.push('Hello there, how are you? Fine. '), ...s.end()]).to.deep.equal(['Hello there, how are you?', 'Fine.']);
    expect(s.push('Yes. And')).to.deep.equal(['Yes.']);
    expect(s.end()).to.deep.equal(['And']);
  });
});
