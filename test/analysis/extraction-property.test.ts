// Property: over many calls, the rule-based analyst reads from the transcript text exactly what the simulated
// callee decided to say (its truth), for every field type and language, nulls included, whole or cut short.
import { expect } from 'chai';
import fc from 'fast-check';
import type { ExtractedValues, FieldDefinition } from '../../server/src/generated/types.gen.js';
import { LONG_CALL_TALK_MS, ScriptedAgent } from '../../server/src/voice-agent/scripted-agent.js';
import { SimulatedCallee } from '../../server/src/voice-agent/simulated-callee.js';
import { fieldLabel, lowerFirst } from '../../server/src/conversation/field-label.js';
import { RuleBasedAnalyst } from '../../server/src/analysis/rule-based-analyst.js';
import { formatTranscript, timeTurns, type CallBrief, type Turn } from '../../server/src/conversation/conversation.js';

const NAMES = [
  'closing_time',
  'open_sunday',
  'staff_count',
  'manager_name',
  'contact_email',
  'website',
  'phone',
  'address',
  'opening_hours',
  'delivery_day',
  'start_date',
  'price',
  'notes',
  'accepts_cards',
  'discount',
  'waitMinutes',
  'time',
  'has_parking',
];
const DESCRIPTIONS = [
  'Closing time on Sunday',
  'Whether they are open on Sunday',
  'The number of staff on duty',
  'name of the manager',
  'Price of a haircut in dollars.',
  'Discount in percent',
  'How long the wait is, in minutes',
  'Email address for bookings',
  'closing time',
  'time',
  'Their delivery day',
  'NHS number',
  'Nombre du responsable',
  'Öffnungszeiten am Samstag',
];

const field: fc.Arbitrary<FieldDefinition> = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...NAMES), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/)),
    type: fc.constantFrom('string', 'boolean', 'number') as fc.Arbitrary<FieldDefinition['type']>,
    description: fc.constantFrom(...DESCRIPTIONS),
  },
  { requiredKeys: ['name'] },
);
const fields = fc.uniqueArray(field, { selector: (f) => f.name, maxLength: 8 });
const callId = fc.stringMatching(/^[a-z0-9]{6,20}$/).map((s) => `call_${s}`);
const language = fc.constantFrom('en-US', 'en-GB', 'fr-FR', 'es-MX', 'de-AT', 'he-IL', 'it-IT', 'pt-BR', 'nl-NL', 'sv-SE');
const RUNS = { seed: 20261123, numRuns: 200 };

const analyst = new RuleBasedAnalyst();

function brief(id: string, requested: FieldDefinition[], lang: string): CallBrief {
  return { callId: id, objective: 'Find out about the shop.', context: null, fields: requested, language: lang, voice: 'alloy' };
}

async function extract(b: CallBrief, turns: Turn[], endReason: 'hung_up' | 'max_duration' = 'hung_up'): Promise<ExtractedValues | null> {
  return (await analyst.analyse({ brief: b, transcript: formatTranscript(turns), endReason })).extracted;
}

/** Indexes of the agent's questions: its lines ending with '?' after the opening, in field order. */
function questionIndexes(turns: Turn[]): number[] {
  const opening = turns.findIndex((t) => t.speaker === 'agent');
  return turns.flatMap((t, i) => (t.speaker === 'agent' && i > opening && /\?\s*$/.test(t.text) ? [i] : []));
}

/** What a cut transcript can still tell: the truth for fields whose answer was kept, null for the rest. */
function expectedAfterCut(requested: FieldDefinition[], truth: ExtractedValues, questions: number[], kept: number): ExtractedValues {
  return Object.fromEntries(requested.map((f, j) => [f.name, questions[j] + 1 < kept ? truth[f.name] : null]));
}

describe('rule-based extraction equals what the simulated callee said', () => {
  it('for 200 random calls, field sets, types and languages, whole conversations', async () => {
    const seen = { string: [0, 0], boolean: [0, 0], number: [0, 0] };
    await fc.assert(
      fc.asyncProperty(callId, fields, language, async (id, requested, lang) => {
        const b = brief(id, requested, lang);
        const extracted = await extract(b, await new ScriptedAgent().converse(b));
        if (requested.length === 0) {
          expect(extracted).to.equal(null);
          return;
        }
        const truth = new SimulatedCallee(b).knownAnswers();
        expect(extracted).to.deep.equal(truth);
        for (const f of requested) seen[f.type ?? 'string'][truth[f.name] === null ? 0 : 1] += 1;
      }),
      RUNS,
    );
    // Every type was exercised both with a value and with "don't know".
    for (const [type, [nulls, values]] of Object.entries(seen)) {
      expect(nulls, `${type} nulls`).to.be.above(20);
      expect(values, `${type} values`).to.be.above(50);
    }
  });

  it('for 200 random calls cut after any turn: fields answered before the cut, the rest null', async () => {
    await fc.assert(
      fc.asyncProperty(callId, fields, language, fc.nat(), async (id, requested, lang, at) => {
        const b = brief(id, requested, lang);
        const turns = await new ScriptedAgent().converse(b);
        const questions = questionIndexes(turns);
        expect(questions).to.have.length(requested.length);
        const kept = at % (turns.length + 1);
        const extracted = await extract(b, turns.slice(0, kept), 'max_duration');
        if (requested.length === 0) {
          expect(extracted).to.equal(null);
          return;
        }
        expect(extracted).to.deep.equal(expectedAfterCut(requested, new SimulatedCallee(b).knownAnswers(), questions, kept));
      }),
      RUNS,
    );
  });

  it('for 200 random calls, summarises the objective and every value learnt, in words', async () => {
    await fc.assert(
      fc.asyncProperty(callId, fields, language, async (id, requested, lang) => {
        const b = brief(id, requested, lang);
        const transcript = formatTranscript(await new ScriptedAgent().converse(b));
        const { summary } = await analyst.analyse({ brief: b, transcript, endReason: 'hung_up' });
        expect(summary.startsWith('Objective: Find out about the shop. The call was completed')).to.equal(true);
        const truth = new SimulatedCallee(b).knownAnswers();
        for (const f of requested) {
          const value = truth[f.name];
          if (value === null) continue;
          const words = typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
          expect(summary).to.include(`${lowerFirst(fieldLabel(f))}: ${words}`);
        }
      }),
      RUNS,
    );
  });

  it('gives null for every field asked after the second question when the call is cut right after it', async () => {
    await fc.assert(
      fc.asyncProperty(
        callId,
        fields.filter((f) => f.length >= 3),
        language,
        async (id, requested, lang) => {
          const b = brief(id, requested, lang);
          const turns = await new ScriptedAgent().converse(b);
          const second = questionIndexes(turns)[1];
          const extracted = await extract(b, turns.slice(0, second + 1), 'max_duration');
          const truth = new SimulatedCallee(b).knownAnswers();
          expect(extracted).to.deep.equal(Object.fromEntries(requested.map((f, j) => [f.name, j === 0 ? truth[f.name] : null])));
        },
      ),
      { ...RUNS, numRuns: 100 },
    );
  });

  it('for 50 long calls cut at the 600 s maximum duration, as the engine cuts them', async () => {
    await fc.assert(
      fc.asyncProperty(callId, fields, language, async (id, requested, lang) => {
        const b = { ...brief(id, requested, lang), to: '+14155550115' };
        const timed = timeTurns(await new ScriptedAgent().converse(b));
        expect(timed.at(-1)!.endMs).to.be.at.least(LONG_CALL_TALK_MS);
        const kept = timed.filter((t) => t.startMs < 600_000);
        const extracted = await extract(b, kept, 'max_duration');
        if (requested.length === 0) {
          expect(extracted).to.equal(null);
          return;
        }
        const questions = questionIndexes(timed);
        expect(extracted).to.deep.equal(expectedAfterCut(requested, new SimulatedCallee(b).knownAnswers(), questions, kept.length));
      }),
      { ...RUNS, numRuns: 50 },
    );
  });
});
