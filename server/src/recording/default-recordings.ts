// Calls' recordings as the service serves them: rendered in the process's recorder thread, kept in the configured
// recordings folder.
import type { Config } from '../config.js';
import { CallRecordings } from './call-recordings.js';
import { ThreadedRecorder } from './threaded-recorder.js';

export function defaultRecordings(config: Pick<Config, 'dataDir' | 'recordingsDir'>): CallRecordings {
  return new CallRecordings(new ThreadedRecorder(), { dataDir: config.dataDir, recordingsDir: config.recordingsDir });
}
