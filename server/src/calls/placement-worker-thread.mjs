// The placement worker's thread (see placement-worker.ts): the pure computation a placement can have done ahead,
// off the event loop. Plain JavaScript so that it starts however the service was started (tsx's CLI, bin/svc.js,
// mocha).
// In: { id, tasks }, each task one of
//   ['lang', text, subset]  ELD's detection of text among subset (comma-separated ISO 639-1 codes), answered
//                           [language ('' for none), reliable, top score, runner-up score];
//   ['e164', text]          the number by libphonenumber's full metadata, answered [valid, type, country]
//                           (null for what it has not), exactly as caller-id.ts parses it in-thread.
// Out: { ready: true } once, then { id, results } with one result per task, in order.
import { parentPort } from 'node:worker_threads';
import { eld } from 'eld/extrasmall';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const E164_SHAPE = /^\+[1-9]\d{6,14}$/;
const detectors = new Map();

function detectorFor(subset) {
  let detector = detectors.get(subset);
  if (!detector) {
    detector = eld.newInstance();
    detector.setLanguageSubset(subset.split(','));
    detectors.set(subset, detector);
  }
  return detector;
}

function detect(text, subset) {
  const result = detectorFor(subset).detect(text);
  if (!result.language) return ['', false, 0, 0];
  const [top = 0, runnerUp = 0] = Object.values(result.getScores()).sort((a, b) => b - a);
  return [result.language, result.isReliable(), top, runnerUp];
}

function parseE164(text) {
  const number = E164_SHAPE.test(text) ? parsePhoneNumberFromString(text) : undefined;
  const type = number?.getType();
  const valid = type !== undefined || number?.isValid() === true;
  return [valid, type ?? null, number?.country ?? null];
}

parentPort.on('message', ({ id, tasks }) => {
  const results = tasks.map((task) => (task[0] === 'lang' ? detect(task[1], task[2]) : parseE164(task[1])));
  parentPort.postMessage({ id, results });
});
parentPort.postMessage({ ready: true });
