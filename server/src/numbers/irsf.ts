// The IRSF (International Revenue Share Fraud) prefix list: destinations blocked in any country. The file has
// one E.164 prefix per line (`+` then 1 to 15 digits); `#` starts a comment; blank lines are ignored.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEFAULT_IRSF_PATH = fileURLToPath(new URL('../../data/irsf-prefixes.txt', import.meta.url));
const PREFIX = /^\+\d{1,15}$/;

export class IrsfList {
  private constructor(readonly prefixes: ReadonlySet<string>) {}

  static parse(text: string): IrsfList {
    const prefixes = new Set<string>();
    text.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.replace(/#.*/, '').trim();
      if (line === '') return;
      if (!PREFIX.test(line)) throw new Error(`IRSF list line ${i + 1}: "${line}" is not a + followed by 1 to 15 digits`);
      prefixes.add(line);
    });
    return new IrsfList(prefixes);
  }

  static load(path: string): IrsfList {
    return IrsfList.parse(readFileSync(path, 'utf8'));
  }

  get size(): number {
    return this.prefixes.size;
  }

  /** True when a listed prefix starts the number; one set lookup per prefix length. */
  matches(e164: string): boolean {
    for (let len = 2; len <= e164.length; len++) if (this.prefixes.has(e164.slice(0, len))) return true;
    return false;
  }
}
