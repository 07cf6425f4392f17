// What the sandbox conversation says, per language: the scripted agent's lines, the simulated callee's lines,
// and the vocabulary the rule-based analyst reads answers with. Keeping the three together keeps them in step.
import type { FieldType } from './field-label.js';
import type { ObjectiveWords } from './objective.js';
import { EN } from './lexicon-en.js';
import { FR } from './lexicon-fr.js';
import { ES } from './lexicon-es.js';
import { DE } from './lexicon-de.js';
import { HE } from './lexicon-he.js';
import { IT } from './lexicon-it.js';
import { NL } from './lexicon-nl.js';
import { PT } from './lexicon-pt.js';

/** What a string answer is about, guessed from the field's name and description. */
export type ValueKind = 'time' | 'hours' | 'name' | 'day' | 'date' | 'email' | 'phone' | 'address' | 'price' | 'url' | 'generic';
export type Unit = 'hours' | 'minutes' | 'days' | 'money' | 'percent' | 'people';

export interface AgentLines {
  /** Opens the call; says it is an AI assistant. */
  hello: string;
  /** How the objective is put in the agent's own words (objective.ts). */
  objective: ObjectiveWords;
  /** Said when the brief has context, which itself is never read out. */
  background: string;
  urgent: string;
  moment: readonly string[];
  /**
   * A question for a field, by its label: ending with the label and a question mark, or a question as a person
   * asks it where the label is a field's bare name ("Are you open on Sunday?"); the analyst knows both.
   */
  ask(label: string, type: FieldType, variant: number): string;
  thanks: readonly string[];
  noProblem: readonly string[];
  /** Back-channel while the callee rambles; never a question. */
  listening: readonly string[];
  allDone: string;
  goodbye: string;
  /** The reply to a callee who asks not to be called again: acknowledges it, apologises and says goodbye. */
  optOutAck: string;
  /** The reply to a callee who asks for a person on a call that has no transfer: declines, offers to help. */
  declineTransfer: string;
  /** Said before a cold transfer: the callee is transferred now. */
  transferring: string;
  /** Said before a warm transfer's call to the person: the callee is asked to hold. */
  holdForTransfer: string;
  /** Said once the person took the call, before the agent joins the two and leaves. */
  connecting: string;
  /** Said when nobody took the transfer. */
  transferFailed: string;
  /** The scripted agent's briefing to the person a warm transfer calls. */
  briefing(objective: string): string;
  /** What the carrier says to the person after the briefing: a key takes the call. */
  takeCallPrompt: string;
  /** What the carrier says to a callee whose cold transfer nobody took, before it hangs up. */
  nobodyTook: string;
  /** Says what a client's tool answered to the callee's question (the sandbox's 555-0131); never a question. */
  toolAnswer(answer: string): string;
  /** Said instead when the agent has no tool to answer with, or the tool failed: it will find out and follow up. */
  followUp: string;
}

export interface CalleeLines {
  hello: readonly string[];
  goAhead: readonly string[];
  /** Reply to the opening when nothing is asked. */
  noted: readonly string[];
  bye: readonly string[];
  /** Asking not to be called again (the sandbox's opt-out number); each holds a phrase of vocabulary.optOut. */
  optOut: readonly string[];
  /** Asking to speak to a person (the sandbox's 555-0128). */
  asksForPerson: readonly string[];
  /** Agreeing to hold while the agent reaches someone. */
  willHold: readonly string[];
  /** Thanking the agent that is putting them through. */
  thankYou: readonly string[];
  /** A question for the agent before its questions (the sandbox's 555-0131), which it answers through a tool. */
  question: readonly string[];
  /** The callee's thanks for the answer. */
  answered: readonly string[];
  /** An answering machine's greeting (the sandbox's voicemail number), asking for a message after the tone. */
  voicemailGreeting: string;
  dontKnow: readonly string[];
  yes: readonly string[];
  no: readonly string[];
  /** Templates with `{n}`. */
  number: readonly string[];
  /** Templates with `{n}` and `{u}`. */
  numberWithUnit: readonly string[];
  units: Readonly<Record<Unit, string>>;
  /** Templates with `{v}`; those starting with `{v}` are used only for values that do not start lower-case. */
  string: readonly string[];
  values: Readonly<Partial<Record<ValueKind, readonly string[]>>>;
  ramble: readonly string[];
}

export interface AnswerVocabulary {
  yes: readonly string[];
  no: readonly string[];
  /** A yes word directly followed by one of these means no ("absolutely not"). */
  negatorsAfterYes: readonly string[];
  /** Words skipped between a yes word and a negator ("claro que no"). */
  joiners: readonly string[];
  /** Phrases meaning the callee does not know; checked first. */
  dontKnow: readonly string[];
  /** Interjections stripped from the start of a string answer when punctuation follows them. */
  interjections: readonly string[];
  /** Lead-ins stripped from the start of a string answer ("it's", "that would be"). */
  leadIns: readonly string[];
  /** Number words by value, from zero. */
  numberWords: readonly string[];
  decimalSeparator: '.' | ',';
  /** Phrases, lower-case, by which a callee asks not to be called again (the rule-based analyst's opt-out). */
  optOut: readonly string[];
}

export interface Lexicon {
  /** Base language subtag. */
  language: string;
  agent: AgentLines;
  callee: CalleeLines;
  vocabulary: AnswerVocabulary;
}

const LEXICONS: Record<string, Lexicon> = { en: EN, fr: FR, es: ES, de: DE, he: HE, it: IT, pt: PT, nl: NL };

/** The lexicon for a BCP-47 code's base subtag; English for languages without one. */
export function lexiconFor(language: string): Lexicon {
  return LEXICONS[language.split('-')[0].toLowerCase()] ?? EN;
}
