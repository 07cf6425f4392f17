// The placement worker's thread (see placement-worker.ts): what placement-compute.mjs computes, off the event loop.
// In: { id, tasks }, each task one of
//   ['lang', text, subset]  ELD's detection of text among subset (comma-separated ISO 639-1 codes);
//   ['e164', text]          the number's facts by libphonenumber's full metadata.
// Out: { ready: true } once, then { id, results } with one result per task, in order.
import { parentPort } from 'node:worker_threads';
import { eld } from 'eld/extrasmall';
import { detection, newDetector, numberFacts } from './placement-compute.mjs';

const detectors = new Map();

function detectorFor(subset) {
  let detector = detectors.get(subset);
  if (!detector) detectors.set(subset, (detector = newDetector(eld, subset.split(','))));
  return detector;
}

parentPort.on('message', ({ id, tasks }) => {
  const results = tasks.map((task) => (task[0] === 'lang' ? detection(detectorFor(task[2]), task[1]) : numberFacts(task[1])));
  parentPort.postMessage({ id, results });
});
parentPort.postMessage({ ready: true });
