// The sandbox's person on the other end: deterministic per call (seeded from the call id), it greets, hears the
// opening, answers roughly 70% of the requested fields and says it does not know the others.
import type { ExtractedValues } from '../generated/types.gen.js';
import type { CallBrief } from '../conversation/conversation.js';
import { EN } from '../conversation/lexicon-en.js';
import { lexiconFor, type Lexicon } from '../conversation/lexicon.js';
import { seededRandom, type SeededRandom } from './seeded-random.js';
import { spokenAnswer } from './spoken-answer.js';

const UNKNOWN_SHARE = 0.3;
/** From this many fields on, at least one is unknown and one known, so every demo shows both. */
const MIXED_FROM = 3;

export interface CalleeReply {
  text: string;
  /** What the callee meant; null when it said it does not know. */
  value: string | number | boolean | null;
}

export class SimulatedCallee {
  readonly lexicon: Lexicon;
  private readonly rng: SeededRandom;
  private readonly questionRng: SeededRandom;
  private readonly replies = new Map<string, CalleeReply>();
  private rambled = 0;
  private readonly callId: string;

  constructor(brief: Pick<CallBrief, 'callId' | 'language' | 'fields'>) {
    this.callId = brief.callId;
    this.lexicon = lexiconFor(brief.language);
    this.rng = seededRandom(`callee:${brief.callId}`);
    this.questionRng = seededRandom(`question:${brief.callId}`);
    // Each field draws from its own stream, so its value does not depend on which other fields were requested
    // (only the one-known-one-unknown rule below may change whether it is known).
    const draws = brief.fields.map((field) => {
      const rng = seededRandom(`field:${brief.callId}:${field.name}`);
      return { field, rng, roll: rng.next() };
    });
    const unknown = new Set(draws.filter((d) => d.roll < UNKNOWN_SHARE).map((d) => d.field.name));
    if (draws.length >= MIXED_FROM) {
      const byRoll = [...draws].sort((a, b) => a.roll - b.roll);
      if (unknown.size === 0) unknown.add(byRoll[0].field.name);
      if (unknown.size === draws.length) unknown.delete(byRoll[byRoll.length - 1].field.name);
    }
    for (const { field, rng } of draws) {
      const reply: CalleeReply = unknown.has(field.name) ? { text: rng.pick(this.lexicon.callee.dontKnow), value: null } : spokenAnswer(field, this.lexicon, EN, rng);
      this.replies.set(field.name, reply);
    }
  }

  hello(): string {
    return this.rng.pick(this.lexicon.callee.hello);
  }

  /** The reply to the agent's opening: an invitation to ask, or an acknowledgement when nothing will be asked. */
  replyToOpening(questionsFollow: boolean): string {
    return this.rng.pick(questionsFollow ? this.lexicon.callee.goAhead : this.lexicon.callee.noted);
  }

  /**
   * The answer to the question the objective asks when no field is requested: yes or no, or a value of the kind the
   * question is about (its words read as a field's description would be).
   */
  answerObjective(question: string, yesNo: boolean): CalleeReply {
    const field = { name: 'answer', type: yesNo ? ('boolean' as const) : ('string' as const), description: question };
    return spokenAnswer(field, this.lexicon, EN, seededRandom(`objective:${this.callId}`));
  }

  answer(fieldName: string): CalleeReply {
    const reply = this.replies.get(fieldName);
    if (!reply) throw new Error(`the callee was not told about field ${fieldName}`);
    return reply;
  }

  /** A few sentences of chatter, for the long-call script. */
  ramble(): string {
    const sentences = this.lexicon.callee.ramble;
    const start = this.rambled;
    this.rambled += 3;
    return [0, 1, 2].map((i) => sentences[(start + i) % sentences.length]).join(' ');
  }

  /**
   * Its question for the agent (the sandbox's 555-0131), drawn from a stream of its own: the agent asks its tool
   * before the conversation is laid out, and the question is the same whenever it is drawn.
   */
  question(): string {
    return this.questionRng.pick(this.lexicon.callee.question);
  }

  /** Thanks the agent for its answer to the question. */
  answered(): string {
    return this.rng.pick(this.lexicon.callee.answered);
  }

  /** Asks not to be called again (the sandbox's opt-out number). */
  optOut(): string {
    return this.rng.pick(this.lexicon.callee.optOut);
  }

  /** Asks to speak to a person (the sandbox's 555-0128). */
  asksForPerson(): string {
    return this.rng.pick(this.lexicon.callee.asksForPerson);
  }

  /** Agrees to hold while the agent reaches someone. */
  willHold(): string {
    return this.rng.pick(this.lexicon.callee.willHold);
  }

  /** Thanks the agent that is putting them through. */
  thankYou(): string {
    return this.rng.pick(this.lexicon.callee.thankYou);
  }

  goodbye(): string {
    return this.rng.pick(this.lexicon.callee.bye);
  }

  /** For tests: what the callee said for every field it was told about, null where it did not know. */
  knownAnswers(): ExtractedValues {
    return Object.fromEntries([...this.replies].map(([name, reply]) => [name, reply.value]));
  }
}
