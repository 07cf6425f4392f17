// The pure computation of a placement that the placement worker thread does ahead of it (placement-worker.ts),
// written once: the thread runs it, and so does the placement itself whenever the thread cannot answer. Plain
// JavaScript, so that the thread starts however the service was started (tsx's CLI, bin/svc.js, mocha); its types
// are in placement-compute.d.mts.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const E164_SHAPE = /^\+[1-9]\d{6,14}$/;

/**
 * A number by libphonenumber's full metadata: [valid, type, country], null for what it has not. With full metadata
 * a number is valid exactly when it has a type, and finding the type is most of the cost of either: so the type is
 * found once, and isValid() asked only of a number without one.
 */
export function numberFacts(text) {
  const number = E164_SHAPE.test(text) ? parsePhoneNumberFromString(text) : undefined;
  const type = number?.getType();
  const valid = type !== undefined || number?.isValid() === true;
  return [valid, type ?? null, number?.country ?? null];
}

/** An ELD detector that chooses among `languages` (ISO 639-1 codes). */
export function newDetector(eld, languages) {
  const detector = eld.newInstance();
  detector.setLanguageSubset([...languages]);
  return detector;
}

/** ELD's result for `text`: [language ('' for none), reliable, top score, runner-up score]. */
export function detection(detector, text) {
  const result = detector.detect(text);
  if (!result.language) return ['', false, 0, 0];
  const [top = 0, runnerUp = 0] = Object.values(result.getScores()).sort((a, b) => b - a);
  return [result.language, result.isReliable(), top, runnerUp];
}
