// The language worker's thread (see language-worker.ts): ELD's detection of batches of texts, off the event loop.
// Plain JavaScript so that it starts however the service was started (tsx's CLI, bin/svc.js, mocha).
// In: { id, items: [text, subset][] }, subset being the comma-separated ISO 639-1 codes to choose among.
// Out: { ready: true } once, then { id, results } with one [language, reliable, top score, runner-up score] per item
// (language '' when ELD found none), in order.
import { parentPort } from 'node:worker_threads';
import { eld } from 'eld/extrasmall';

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

parentPort.on('message', ({ id, items }) => {
  const results = items.map(([text, subset]) => {
    const result = detectorFor(subset).detect(text);
    if (!result.language) return ['', false, 0, 0];
    const [top = 0, runnerUp = 0] = Object.values(result.getScores()).sort((a, b) => b - a);
    return [result.language, result.isReliable(), top, runnerUp];
  });
  parentPort.postMessage({ id, results });
});
parentPort.postMessage({ ready: true });
