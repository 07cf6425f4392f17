import { expect } from 'chai';
import type { FieldDefinition } from '../../server/src/generated/types.gen.js';
import { LONG_CALL_TALK_MS, ScriptedAgent } from '../../server/src/voice-agent/scripted-agent.js';
import { SimulatedCallee } from '../../server/src/voice-agent/simulated-callee.js';
import { EN } from '../../server/src/conversation/lexicon-en.js';
import { FR } from '../../server/src/conversation/lexicon-fr.js';
import { lexiconFor } from '../../server/src/conversation/lexicon.js';
import { DEFAULT_LANGUAGES } from '../../server/src/placement/language.js';
import { formatTranscript, timeTurns, type CallBrief, type Turn } from '../../server/src/conversation/conversation.js';

const FIELDS: FieldDefinition[] = [
  { name: 'closing_time', description: 'Closing time on Sunday' },
  { name: 'open_sunday', type: 'boolean', description: 'Open on Sunday' },
  { name: 'staffCount', type: 'number' },
  { name: 'manager_name', type: 'string' },
];

function brief(over: Partial<CallBrief> = {}): CallBrief {
  return { callId: 'call_agent_1', objective: 'Ask whether the bakery is open on Sunday.', context: null, fields: FIELDS, language: 'en-US', voice: 'alloy', ...over };
}

const talk = (b: CallBrief, agent = new ScriptedAgent()): Promise<Turn[]> => agent.converse(b);
const agentLines = (turns: Turn[]): string[] => turns.filter((t) => t.speaker === 'agent').map((t) => t.text);
const lastEnd = (turns: Turn[]): number => timeTurns(turns).at(-1)!.endMs;

describe('scripted agent', () => {
  it("is named 'scripted'", () => {
    expect(new ScriptedAgent().name).to.equal('scripted');
  });

  it('lets the callee greet, then opens with who it is and the objective, and hears the reply', async () => {
    const turns = await talk(brief());
    expect(turns[0].speaker).to.equal('callee');
    expect(EN.callee.hello).to.include(turns[0].text);
    expect(turns[1].speaker).to.equal('agent');
    expect(turns[1].text).to.match(/^Hello, this is an AI assistant calling on behalf of a client\. I'm calling to ask whether the bakery is open on Sunday\. /);
    expect(turns[2].speaker).to.equal('callee');
    expect(EN.callee.goAhead).to.include(turns[2].text);
  });

  it('asks for every field, by its description when given and else by its humanised name', async () => {
    const lines = agentLines(await talk(brief()));
    expect(lines[1]).to.equal('Could you tell me the closing time on Sunday?');
    expect(lines[2]).to.match(/ Are you open on Sunday\?$/);
    expect(lines[3]).to.match(/ And could you tell me the staff count\?$/);
    expect(lines[4]).to.match(/ What about the manager name\?$/);
    expect(lines).to.have.length(6);
  });

  it('takes no article before a description that is already a question or a noun phrase', async () => {
    const fields: FieldDefinition[] = [
      { name: 'when_open', description: 'When the shop opens on Monday' },
      { name: 'fee', type: 'number', description: 'The delivery fee in dollars.' },
    ];
    const lines = agentLines(await talk(brief({ fields })));
    expect(lines[1]).to.equal('Could you tell me when the shop opens on Monday?');
    expect(lines[2]).to.match(/ May I ask the delivery fee in dollars\?$/);
  });

  it('thanks the callee for an answer and says "no problem" when it does not know', async () => {
    const b = brief({ callId: 'call_mixed_7' });
    const truth = new SimulatedCallee(b).knownAnswers();
    expect(Object.values(truth)).to.include(null);
    expect(Object.values(truth).some((v) => v !== null)).to.equal(true);
    const lines = agentLines(await talk(b));
    FIELDS.forEach((field, i) => {
      const reaction = truth[field.name] === null ? EN.agent.noProblem : EN.agent.thanks;
      expect(
        reaction.some((r) => lines[i + 2].startsWith(`${r} `)),
        `${field.name}: ${lines[i + 2]}`,
      ).to.equal(true);
    });
  });

  it('ends politely, and the callee says goodbye last', async () => {
    const turns = await talk(brief());
    const lastAgent = agentLines(turns).at(-1)!;
    expect(lastAgent).to.match(/ That's all I needed\. Thank you, goodbye\.$/);
    expect(turns.at(-1)!.speaker).to.equal('callee');
    expect(EN.callee.bye).to.include(turns.at(-1)!.text);
  });

  it('with no fields, asks the question the objective asks and takes the answer', async () => {
    const turns = await talk(brief({ fields: [] }));
    expect(turns.map((t) => t.speaker)).to.deep.equal(['callee', 'agent', 'callee', 'agent', 'callee']);
    expect(turns[1].text).to.equal('Hello, this is an AI assistant calling on behalf of a client. I have a quick question: could you tell me whether the bakery is open on Sunday?');
    expect([...EN.callee.yes, ...EN.callee.no]).to.include(turns[2].text);
    expect(turns[3].text).to.match(/ That's all I needed\. Thank you, goodbye\.$/);
  });

  it('with no fields, asks an open question when the objective asks what, when or where, and hears a value', async () => {
    const turns = await talk(brief({ fields: [], objective: 'Find out when the shop closes on Saturday' }));
    expect(turns[1].text).to.equal('Hello, this is an AI assistant calling on behalf of a client. I have a quick question: could you tell me when the shop closes on Saturday?');
    expect([...EN.callee.yes, ...EN.callee.no, ...EN.callee.dontKnow]).to.not.include(turns[2].text);
  });

  it('with no fields and an objective that asks nothing, says it in its own words and has the callee confirm it', async () => {
    const turns = await talk(brief({ fields: [], objective: 'Remind the callee of their dentist appointment on Tuesday at 3 pm.' }));
    expect(turns[1].text).to.equal(
      "Hello, this is an AI assistant calling on behalf of a client. I'm calling to remind you of your dentist appointment on Tuesday at 3 pm. Could you confirm you've got that?",
    );
    expect(EN.callee.noted).to.include(turns[2].text);
    expect(turns[3].text).to.equal("That's all I needed. Thank you, goodbye.");
  });

  it('says what the call is about when the objective is not an action', async () => {
    const turns = await talk(brief({ objective: 'Sunday opening hours' }));
    expect(turns[1].text).to.match(/^Hello, this is an AI assistant calling on behalf of a client\. I'm calling about Sunday opening hours\. /);
  });

  it('speaks to the callee, not about them: the client\'s "them" and "their" become "you" and "your"', async () => {
    const turns = await talk(brief({ fields: [], objective: 'Ask them whether they deliver to Leeds' }));
    expect(turns[1].text).to.match(/ could you tell me whether you deliver to Leeds\?$/);
  });

  it('asks a yes-or-no field by its bare name as a person would', () => {
    const asked = (name: string) => EN.agent.ask(name.replace(/_/g, ' '), 'boolean', 0);
    expect(asked('open_sunday')).to.equal('Are you open on Sunday?');
    expect(asked('is_wheelchair_accessible')).to.equal('Are you wheelchair accessible?');
    expect(asked('has_parking')).to.equal('Do you have parking?');
    expect(asked('accepts_cards')).to.equal('Do you accept cards?');
    expect(asked('parking_available')).to.equal('Is parking available?');
    expect(asked('wheelchair_access')).to.equal('Do you have wheelchair access?');
    expect(EN.agent.ask('closing time sunday', 'string', 0)).to.equal('Could you tell me the closing time on Sunday?');
    expect(EN.agent.ask('Is the shop open on Sundays', 'boolean', 0)).to.equal('Is the shop open on Sundays?');
    expect(EN.agent.ask('Whether the shop delivers', 'boolean', 0)).to.equal('Could you tell me whether the shop delivers?');
  });

  it('in every language it speaks, puts a question objective as its own question and an action as what it would like to do', async () => {
    const cases: [string, string, string, string][] = [
      [
        'de-DE',
        'Fragen, ob die Bäckerei am Sonntag geöffnet hat',
        'Ich habe eine kurze Frage: Können Sie mir sagen, ob die Bäckerei am Sonntag geöffnet hat?',
        'Einen Termin für Dienstag vereinbaren|Ich möchte einen Termin für Dienstag vereinbaren.',
      ],
      [
        'es-ES',
        'Preguntar si la panadería abre el domingo',
        'Tengo una pregunta rápida: ¿podría decirme si la panadería abre el domingo?',
        'Reservar una mesa para dos|Le llamo para reservar una mesa para dos.',
      ],
      [
        'fr-FR',
        'Demander si la boulangerie est ouverte le dimanche',
        "J'ai une petite question : pourriez-vous me dire si la boulangerie est ouverte le dimanche ?",
        'Réserver une table pour deux|Je vous appelle pour réserver une table pour deux.',
      ],
      [
        'it-IT',
        'Chiedere se il panificio è aperto la domenica',
        'Ho una domanda veloce: potrebbe dirmi se il panificio è aperto la domenica?',
        'Prenotare un tavolo per due|La chiamo per prenotare un tavolo per due.',
      ],
      [
        'pt-PT',
        'Perguntar se a padaria abre ao domingo',
        'Tenho uma pergunta rápida: pode dizer-me se a padaria abre ao domingo?',
        'Reservar uma mesa para dois|Estou a ligar para reservar uma mesa para dois.',
      ],
      [
        'nl-NL',
        'Vragen of de bakkerij op zondag open is',
        'Ik heb een korte vraag: kunt u mij vertellen of de bakkerij op zondag open is?',
        'Een afspraak maken voor dinsdag|Ik wil graag een afspraak maken voor dinsdag.',
      ],
      ['he-IL', 'לשאול אם המאפייה פתוחה ביום ראשון', 'יש לי שאלה קצרה: תוכלו לומר לי אם המאפייה פתוחה ביום ראשון?', 'לקבוע תור ליום שלישי|אני מתקשר כדי לקבוע תור ליום שלישי.'],
      [
        'en-GB',
        'Ask whether the bakery is open on Sunday',
        'I have a quick question: could you tell me whether the bakery is open on Sunday?',
        "Book a table for two|I'm calling to book a table for two.",
      ],
    ];
    for (const [language, question, asked, action] of cases) {
      const lex = lexiconFor(language);
      const q = await talk(brief({ language, objective: question, fields: [] }));
      expect(q[1].text, language).to.equal(`${lex.agent.hello} ${asked}`);
      expect([...lex.callee.yes, ...lex.callee.no], language).to.include(q[2].text);
      const [objective, said] = action.split('|');
      const a = await talk(brief({ language, objective, fields: [] }));
      expect(a[1].text, language).to.equal(`${lex.agent.hello} ${said} ${lex.agent.objective.confirm}`);
      expect(lex.callee.noted, language).to.include(a[2].text);
      const withFields = await talk(brief({ language, objective }));
      expect(withFields[1].text.startsWith(`${lex.agent.hello} ${said} `), language).to.equal(true);
    }
  });

  it('gives a transcript of one turn per line, each with its speaker', async () => {
    const turns = await talk(brief());
    const lines = formatTranscript(turns).split('\n');
    expect(lines).to.have.length(turns.length);
    for (let i = 0; i < lines.length; i++) expect(lines[i]).to.equal(`${turns[i].speaker === 'agent' ? 'Agent' : 'Callee'}: ${turns[i].text}`);
  });

  it('holds the same conversation for the same call id, and different ones for different ids', async () => {
    expect(await talk(brief())).to.deep.equal(await talk(brief()));
    const transcripts = new Set<string>();
    for (let i = 0; i < 20; i += 1) transcripts.add(formatTranscript(await talk(brief({ callId: `call_${i}` }))));
    expect(transcripts.size).to.be.above(15);
  });

  it('never reads the context out, but lets it shape the wording', async () => {
    const context = 'The customer Dana Levi wants to pick up a birthday cake urgently, account 4471.';
    const transcript = formatTranscript(await talk(brief({ context })));
    const words = context.replace(/[.,]/g, '').split(' ');
    for (let i = 0; i + 3 <= words.length; i += 1) expect(transcript).to.not.include(words.slice(i, i + 3).join(' '));
    expect(transcript).to.not.include('Dana');
    expect(transcript).to.not.include('4471');
    expect(transcript).to.include(EN.agent.urgent);
    const calm = formatTranscript(await talk(brief({ context: 'The customer prefers mornings.' })));
    expect(calm).to.include(EN.agent.background);
    expect(calm).to.not.include('mornings');
  });

  it('speaks every language of the catalogue, and English for any other', async () => {
    const fr = await talk(brief({ language: 'fr-CA' }));
    expect(fr[1].text).to.match(/^Bonjour, ici un assistant IA/);
    expect(agentLines(fr)[1]).to.equal('Pourriez-vous me dire : Closing time on Sunday ?');
    expect(agentLines(fr).at(-1)).to.match(new RegExp(`${FR.agent.goodbye}$`));
    for (const [language, hello] of [
      ['es-ES', 'Hola, le llama'],
      ['de-DE', 'Guten Tag, hier spricht'],
      ['he-IL', 'שלום, מדבר'],
      ['it-IT', 'Buongiorno, sono'],
      ['pt-BR', 'Olá, fala'],
      ['nl-BE', 'Goedendag, u spreekt'],
      ['sv-SE', 'Hello, this is'],
    ]) {
      expect((await talk(brief({ language })))[1].text.startsWith(hello), language).to.equal(true);
    }
  });

  it('has lines for every language the agent catalogue offers', () => {
    for (const code of DEFAULT_LANGUAGES) expect(lexiconFor(`${code}-XX`).language).to.equal(code);
    expect(lexiconFor('sv-SE').language).to.equal('en');
  });

  it('takes under two minutes for an ordinary call', async () => {
    expect(lastEnd(await talk(brief()))).to.be.below(120_000);
  });

  it('talks for at least 15 minutes on the long-call number, the callee rambling between answers', async () => {
    const turns = await talk(brief({ to: '+14155550115' }));
    expect(LONG_CALL_TALK_MS).to.equal(900_000);
    expect(lastEnd(turns)).to.be.at.least(LONG_CALL_TALK_MS);
    const lines = agentLines(turns);
    expect(lines.filter((l) => l.endsWith('?'))).to.have.length(FIELDS.length + 1);
    expect(EN.agent.listening.some((l) => lines.includes(l))).to.equal(true);
    // Each question is still answered on the very next line.
    const timed = timeTurns(turns);
    const firstQuestion = timed.findIndex((t) => t.text.endsWith('closing time on Sunday?'));
    expect(firstQuestion).to.be.above(4);
    expect(timed[firstQuestion].startMs).to.be.above(60_000);
    expect(turns[firstQuestion + 1].text).to.equal((await talk(brief()))[4].text);
  });

  it('talks for as long as minTalkMs asks on any number, and only on the long-call number by default', async () => {
    expect(lastEnd(await talk(brief(), new ScriptedAgent({ minTalkMs: 300_000 })))).to.be.at.least(300_000);
    expect(lastEnd(await talk(brief({ to: '+14155550123' })))).to.be.below(120_000);
  });
});
