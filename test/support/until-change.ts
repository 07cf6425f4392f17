// Resolves when `test` holds, checked now and after every 'change' the emitter announces.
import type { EventEmitter } from 'node:events';

export function untilChange(emitter: EventEmitter, test: () => boolean): Promise<void> {
  if (test()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!test()) return;
      emitter.off('change', check);
      resolve();
    };
    emitter.on('change', check);
  });
}
