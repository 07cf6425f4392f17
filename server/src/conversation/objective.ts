// How the scripted agent puts the call's objective in its own words. A client writes the objective as an
// instruction to the agent ("Ask whether the bakery is open on Sunday"); read out word for word it sounds like a
// machine reading its brief. So the agent says what it would like to do ("I'm calling to ask whether the bakery is
// open on Sunday."), or what the call is about when the objective is not an action, and, when no field is
// requested, asks the objective itself ("Could you tell me whether the bakery is open on Sunday?") or asks the
// callee to confirm a message, so the call always has a question that serves it. Each language gives its own
// patterns (ObjectiveWords in its lexicon); this file holds the one rule that uses them.

/** What a language knows of objectives: how an action reads, how a question is asked, and the lines around them. */
export interface ObjectiveWords {
  /** Whether the objective is something to do (an infinitive or imperative phrase), said after `callingTo`. */
  isAction(objective: string): boolean;
  /** The objective as an action, lower-cased where the language allows, ready to follow `callingTo`. */
  action(objective: string): string;
  /** "I'm calling to {action}." */
  callingTo(action: string): string;
  /** "I'm calling about {topic}." */
  callingAbout(topic: string): string;
  /**
   * An objective that asks something: a verb of asking, then the question word and the rest; the match's groups
   * are the question word (1) and what follows it (2).
   */
  asks: RegExp;
  /** The question words that make a yes-or-no question (English "whether", "if"). */
  yesNo: RegExp;
  /** The objective's question put to the callee, with the purpose: "I have a quick question: could you tell me {q}?" */
  question(q: string): string;
  /** After a message that asks nothing: a question that has the callee confirm it. */
  confirm: string;
  /** Turns the client's words about the callee into words to the callee (English "them" → "you"). */
  toCallee(text: string): string;
}

/** What the agent's opening says of the objective, and the question it ends on when no field is requested. */
export interface ObjectiveOpening {
  /** The purpose, in the agent's words; with `question` it is the question itself. */
  purpose: string;
  /** Present when the objective asks something: the question put to the callee, and whether yes or no answers it. */
  question?: { text: string; yesNo: boolean };
  /** Present when the objective asks nothing and no field is requested: the line that has the callee confirm it. */
  confirm?: string;
}

/**
 * The opening's words for an objective (already trimmed of its closing punctuation). With fields to ask, the
 * purpose is said and the fields follow; without, the objective's own question is asked, or the callee confirms.
 */
export function objectiveOpening(words: ObjectiveWords, objective: string, hasFields: boolean): ObjectiveOpening {
  const text = words.toCallee(objective);
  const purpose = words.isAction(text) ? words.callingTo(words.action(text)) : words.callingAbout(text);
  if (hasFields) return { purpose };
  const asked = words.asks.exec(text);
  if (asked) {
    const q = `${asked[1]}${asked[2]}`.trim();
    return { purpose: words.question(q), question: { text: q, yesNo: words.yesNo.test(asked[1]) } };
  }
  return { purpose, confirm: words.confirm };
}
