// How the sandbox's scripted agents read what a business line says before a person comes on, and what they choose:
// a key menu ("For billing, press 2.") is answered with the key of the option that best fits the objective, a
// spoken menu ("Please say the department you need: orders, billing, or operator.") with the option's word, a hold
// ("please hold", "your call is important to us") by waiting on hold, and a recording that puts the call through
// ("Connecting you now.") by listening on. Anything else is a person. English, as the sandbox's recordings are. A
// real model does all this from its instructions (realtime-instructions.ts); this is the script's stand-in.

export type HeardLine =
  | { kind: 'key_menu'; options: Array<{ key: string; label: string }> }
  | { kind: 'spoken_menu'; options: string[] }
  | { kind: 'hold' }
  | { kind: 'recording' }
  | { kind: 'person' };

const KEY_OPTION = /\b(?:for|to) ([^.]+?),? press ([0-9*#])/gi;
const SPOKEN_OPTIONS = /\bsay\b[^:.]*:\s*([^.]+)\./i;
const HOLD = /\b(please hold|hold the line|on hold|your call is important|are all busy|are busy right now)\b/i;
const RECORDING = /\b(connecting you|transferring you|please wait)\b/i;
/** An option to take when none fits the objective. */
const FALLBACK = /\b(anything else|operator|other)\b/i;
/** Words that say nothing of what an option is about. */
const STOP_WORDS = new Set([
  'about',
  'after',
  'also',
  'from',
  'have',
  'into',
  'just',
  'more',
  'need',
  'please',
  'some',
  'that',
  'their',
  'them',
  'they',
  'this',
  'what',
  'when',
  'where',
  'which',
  'will',
  'with',
  'your',
]);

export function readLine(text: string): HeardLine {
  const keys = [...text.matchAll(KEY_OPTION)].map((m) => ({ key: m[2]!, label: m[1]!.trim() }));
  if (keys.length > 0) return { kind: 'key_menu', options: keys };
  const spoken = SPOKEN_OPTIONS.exec(text);
  if (spoken) {
    const options = spoken[1]!
      .split(/,\s*(?:or\s+)?|\s+or\s+/)
      .map((w) => w.trim())
      .filter(Boolean);
    if (options.length > 0) return { kind: 'spoken_menu', options };
  }
  if (HOLD.test(text)) return { kind: 'hold' };
  if (RECORDING.test(text)) return { kind: 'recording' };
  return { kind: 'person' };
}

const words = (text: string) => (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => w.length >= 4 && !STOP_WORDS.has(w));

/** Two words of one stem: one begins the other, or they share their first five letters ("deliveries", "delivery"). */
const sameStem = (a: string, b: string) => a.startsWith(b) || b.startsWith(a) || (a.length >= 5 && b.length >= 5 && a.slice(0, 5) === b.slice(0, 5));

/**
 * The option (by index) that best fits the objective: the one sharing the most words with it; when none shares any,
 * the operator or "anything else"; failing that, the first.
 */
export function chooseOption(labels: readonly string[], objective: string): number {
  const wanted = words(objective);
  const scores = labels.map((label) => words(label).filter((w) => wanted.some((o) => sameStem(w, o))).length);
  const best = Math.max(...scores);
  if (best > 0) return scores.indexOf(best);
  const fallback = labels.findIndex((l) => FALLBACK.test(l));
  return Math.max(fallback, 0);
}
