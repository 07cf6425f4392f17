import { expect } from 'chai';
import type { FieldDefinition } from '../../server/src/generated/types.gen.js';
import { RuleBasedAnalyst } from '../../server/src/analysis/rule-based-analyst.js';
import type { EndReason } from '../../server/src/analysis/analyst.js';
import { readAnswer } from '../../server/src/analysis/answer-reader.js';
import { lexiconFor } from '../../server/src/conversation/lexicon.js';
import type { FieldType } from '../../server/src/conversation/field-label.js';
import type { CallBrief } from '../../server/src/conversation/conversation.js';

const FIELDS: FieldDefinition[] = [
  { name: 'closing_time', description: 'Closing time on Sunday' },
  { name: 'open_sunday', type: 'boolean', description: 'Open on Sunday' },
  { name: 'staff_count', type: 'number' },
  { name: 'manager_name' },
];

function brief(over: Partial<CallBrief> = {}): CallBrief {
  return { callId: 'call_an_1', objective: 'Ask whether the bakery is open on Sunday.', context: null, fields: FIELDS, language: 'en-US', voice: 'alloy', ...over };
}

const TRANSCRIPT = [
  'Callee: Hello?',
  'Agent: Hello, this is an AI assistant calling on behalf of a client. The reason for my call: Ask whether the bakery is open on Sunday. Is now a good time?',
  'Callee: Sure, go ahead.',
  'Agent: Could you tell me the closing time on Sunday?',
  "Callee: Let me see... it's 5:30 pm.",
  'Agent: Thank you. Quick yes-or-no question: open on Sunday?',
  "Callee: Yeah, that's right.",
  'Agent: Great, thanks. And could you tell me the staff count?',
  "Callee: I'm not sure, I'm afraid.",
  'Agent: No problem. What about the manager name?',
  'Callee: Sarah Cohen.',
  "Agent: Thank you. That's all I needed. Thank you, goodbye.",
  'Callee: Goodbye!',
].join('\n');

const analyse = (transcript: string, over: Partial<CallBrief> = {}, endReason: EndReason = 'hung_up') => new RuleBasedAnalyst().analyse({ brief: brief(over), transcript, endReason });

describe('rule-based analyst', () => {
  it("is named 'rule-based'", () => {
    expect(new RuleBasedAnalyst().name).to.equal('rule-based');
  });

  it('extracts every requested field from the transcript text, null where the callee did not know', async () => {
    const { extracted } = await analyse(TRANSCRIPT);
    expect(extracted).to.deep.equal({ closing_time: '5:30 pm', open_sunday: true, staff_count: null, manager_name: 'Sarah Cohen' });
  });

  it('points every value to the turn it was read from, quoting it exactly, and gives no evidence for a null value', async () => {
    const { evidence } = await analyse(TRANSCRIPT);
    expect(evidence).to.deep.equal({
      closing_time: { turn: 4, quote: "Let me see... it's 5:30 pm." },
      open_sunday: { turn: 6, quote: "Yeah, that's right." },
      staff_count: null,
      manager_name: { turn: 10, quote: 'Sarah Cohen.' },
    });
    const lines = TRANSCRIPT.split('\n');
    for (const ev of Object.values(evidence!)) if (ev) expect(lines[ev.turn]).to.equal(`Callee: ${ev.quote}`);
    expect((await analyse(TRANSCRIPT, { fields: [] })).evidence).to.equal(null);
  });

  it('summarises the objective, the outcome and every value learnt, in plain English', async () => {
    const { summary } = await analyse(TRANSCRIPT);
    expect(summary).to.equal(
      'Objective: Ask whether the bakery is open on Sunday. The call was completed; the agent asked 4 of 4 questions and got 3 answers. ' +
        'Learnt: closing time on Sunday: 5:30 pm; open on Sunday: yes; manager name: Sarah Cohen. No answer for: staff count.',
    );
  });

  it('gives null for the fields asked after the cut when the call is cut after the second question', async () => {
    const lines = TRANSCRIPT.split('\n');
    const cut = lines.slice(0, lines.indexOf('Agent: Thank you. Quick yes-or-no question: open on Sunday?') + 1).join('\n');
    const { extracted, summary } = await analyse(cut, {}, 'max_duration');
    expect(extracted).to.deep.equal({ closing_time: '5:30 pm', open_sunday: null, staff_count: null, manager_name: null });
    expect(summary).to.equal(
      'Objective: Ask whether the bakery is open on Sunday. The call was cut short at the maximum call duration; the agent asked 2 of 4 questions and got 1 answer. ' +
        'Learnt: closing time on Sunday: 5:30 pm. No answer for: open on Sunday. Not asked before the call ended: staff count; manager name.',
    );
  });

  it('says when the minute allowance cut the call', async () => {
    const { summary } = await analyse(TRANSCRIPT.split('\n').slice(0, 3).join('\n'), {}, 'minute_cap');
    expect(summary).to.equal(
      "Objective: Ask whether the bakery is open on Sunday. The call was cut short when the account's minute allowance ran out; the agent asked 0 of 4 questions and got 0 answers. " +
        'Not asked before the call ended: closing time on Sunday; open on Sunday; staff count; manager name.',
    );
  });

  it('gives extracted null when no fields were requested', async () => {
    const { extracted, summary } = await analyse(TRANSCRIPT, { fields: [] });
    expect(extracted).to.equal(null);
    expect(summary).to.equal('Objective: Ask whether the bakery is open on Sunday. The call was completed; no fields were requested.');
  });

  it('gives null for every field of an empty transcript', async () => {
    const { extracted } = await analyse('');
    expect(extracted).to.deep.equal({ closing_time: null, open_sunday: null, staff_count: null, manager_name: null });
  });

  it('keys fields named __proto__ and constructor as their own properties', async () => {
    const fields: FieldDefinition[] = [{ name: '__proto__' }, { name: 'constructor', type: 'number' }];
    const transcript = ['Agent: Hi.', 'Agent: Could you tell me the proto?', "Callee: It's blue.", 'Agent: And the constructor?', 'Callee: 7.'].join('\n');
    const { extracted } = await analyse(transcript, { fields });
    expect(Object.keys(extracted!)).to.deep.equal(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(extracted))).to.deep.equal(JSON.parse('{"__proto__":"blue","constructor":7}'));
  });

  it('never takes the introduction for a question, even when it ends with a field label', async () => {
    const fields: FieldDefinition[] = [{ name: 'time' }];
    const transcript = ['Callee: Hello?', 'Agent: Hello, this is an AI assistant. Is now a good time?', 'Callee: Sure, go ahead.'].join('\n');
    expect((await analyse(transcript, { fields })).extracted).to.deep.equal({ time: null });
  });

  it('gives a question to the field with the longest label it ends with', async () => {
    const fields: FieldDefinition[] = [{ name: 'time' }, { name: 'closing_time' }];
    const transcript = ['Agent: Hi.', 'Agent: Could you tell me the closing time?', "Callee: It's 6 pm.", 'Agent: And the time?', "Callee: It's noon."].join('\n');
    expect((await analyse(transcript, { fields })).extracted).to.deep.equal({ time: 'noon', closing_time: '6 pm' });
  });

  it('gives null when the agent speaks again instead of the callee answering', async () => {
    const transcript = ['Agent: Hi.', 'Agent: Could you tell me the manager name?', 'Agent: Hello, are you there?'].join('\n');
    expect((await analyse(transcript, { fields: [{ name: 'manager_name' }] })).extracted).to.deep.equal({ manager_name: null });
  });

  it('reads a question whatever its wording, as long as it ends with the label', async () => {
    const transcript = ['Agent: Hi.', 'Agent: Who is your manager name?', 'Callee: Well, that would be Ada Lovelace.'].join('\n');
    expect((await analyse(transcript, { fields: [{ name: 'manager_name' }] })).extracted).to.deep.equal({ manager_name: 'Ada Lovelace' });
  });

  it('reads a French call', async () => {
    const transcript = [
      'Callee: Allô ?',
      'Agent: Bonjour, ici un assistant IA. Avez-vous un instant ?',
      'Callee: Oui, allez-y.',
      'Agent: Pourriez-vous me dire : Closing time on Sunday ?',
      "Callee: Alors, c'est 17 h 30.",
      'Agent: Merci. Question par oui ou non : Open on Sunday ?',
      'Callee: Pas du tout.',
      'Agent: Merci. Et pourriez-vous me préciser : staff count ?',
      'Callee: Environ douze personnes.',
    ].join('\n');
    expect((await analyse(transcript, { language: 'fr-FR' })).extracted).to.deep.equal({ closing_time: '17 h 30', open_sunday: false, staff_count: 12, manager_name: null });
  });
});

describe('reading one answer', () => {
  const read = (text: string, type: FieldType, language = 'en') => readAnswer(text, type, lexiconFor(language).vocabulary);
  const cases: [string, string, FieldType, string | number | boolean | null][] = [
    ['en', 'Yes, we are.', 'boolean', true],
    ['en', 'Yep', 'boolean', true],
    ['en', 'Absolutely.', 'boolean', true],
    ['en', "No, I'm afraid not.", 'boolean', false],
    ['en', 'Nope, sorry', 'boolean', false],
    ['en', 'Absolutely not.', 'boolean', false],
    ['en', 'Not at the moment, no.', 'boolean', false],
    ['en', "I don't know.", 'boolean', null],
    ['en', 'Hmm, maybe.', 'boolean', null],
    ['fr', 'Bien sûr.', 'boolean', true],
    ['fr', 'Absolument pas.', 'boolean', false],
    ['es', 'Claro que sí.', 'boolean', true],
    ['es', 'Claro que no.', 'boolean', false],
    ['es', 'No lo sé, lo siento.', 'boolean', null],
    ['de', 'Ja, sicher.', 'boolean', true],
    ['de', 'Leider nicht.', 'boolean', false],
    ['de', 'Keine Ahnung, tut mir leid.', 'boolean', null],
    ['he', 'כן, בהחלט.', 'boolean', true],
    ['he', 'ממש לא.', 'boolean', false],
    ['he', 'אני לא יודעת, מצטערת.', 'boolean', null],
    ['it', 'Assolutamente no.', 'boolean', false],
    ['it', 'Sì, certamente.', 'boolean', true],
    ['pt', 'Claro que não.', 'boolean', false],
    ['pt', 'Não tenho a certeza.', 'boolean', null],
    ['nl', 'Nee, helaas niet.', 'boolean', false],
    ['nl', 'Dat weet ik niet zeker.', 'boolean', null],
    ['en', 'About 42.', 'number', 42],
    ['en', "It's 3.5 hours.", 'number', 3.5],
    ['en', 'Roughly twelve dollars, I think.', 'number', 12],
    ['en', 'About 1,200 people.', 'number', 1200],
    ['en', 'Zero.', 'number', 0],
    ['en', 'Seventeen, or 18 at most.', 'number', 17],
    ['en', 'Quite a lot.', 'number', null],
    ['en', 'No idea, sorry.', 'number', null],
    ['fr', "C'est 12,5 heures.", 'number', 12.5],
    ['fr', 'Environ dix-sept.', 'number', 17],
    ['de', 'Das sind 1.250 Euro.', 'number', 1250],
    ['es', 'Unos 45,2 euros.', 'number', 45.2],
    ['he', 'בערך 32 שקלים.', 'number', 32],
    ['it', 'Circa diciassette.', 'number', 17],
    ['pt', 'São 3,5 horas.', 'number', 3.5],
    ['nl', 'Één.', 'number', 1],
    ['nl', 'Een stuk of 4.', 'number', 4],
    ['en', "It's 5 pm.", 'string', '5 pm'],
    ['en', 'We close at 9:30 pm.', 'string', '9:30 pm'],
    ['en', 'Well, that would be the standard option.', 'string', 'the standard option'],
    ['en', 'info@example.com.', 'string', 'info@example.com'],
    ['en', "I couldn't tell you, I'm afraid.", 'string', null],
    ['en', '...', 'string', null],
    ['de', 'Also, das wäre das blaue Modell.', 'string', 'das blaue Modell'],
    ['es', 'A ver... las 17:30.', 'string', 'las 17:30'],
    ['he', 'אצלנו זה 17:00.', 'string', '17:00'],
    ['it', 'Allora, sarebbe il modello blu.', 'string', 'il modello blu'],
    ['pt', 'Então, é meio-dia.', 'string', 'meio-dia'],
    ['nl', 'Nou, dat is 17.30 uur.', 'string', '17.30 uur'],
  ];
  for (const [language, text, type, expected] of cases) {
    it(`reads ${JSON.stringify(text)} (${language}) as the ${type} ${JSON.stringify(expected)}`, () => {
      expect(read(text, type, language)).to.equal(expected);
    });
  }
});
