// What the sandbox's business lines say before a person comes on (numbers/sandbox-numbers.ts): a menu of keys two
// levels deep (555-0125), a menu that wants its option spoken (555-0126), and a queue that puts the caller on hold
// (555-0127). They speak English whatever the call's language, as a business's recordings speak its own; the person
// who comes on after them speaks the call's language. The menus are state machines fed what the caller did, so the
// text sandbox's script and the live line's callee (which decodes the agent's keys from the audio) take the same
// paths: the right keys lead to a person, a wrong one has the menu say so and repeat itself.

export interface MenuOption {
  /** The key that chooses it (key menu) or the word that does (spoken menu). */
  choice: string;
  label: string;
  /** The next level of a key menu; none: the option connects to a person. */
  next?: MenuLevel;
}

export interface MenuLevel {
  /** Said before the options. */
  intro: string;
  options: MenuOption[];
}

export type MenuKind = 'keys' | 'spoken';

const GREETING = 'Thank you for calling Northwind.';
export const CONNECTING = 'Thank you. Connecting you now.';
const NOT_VALID = 'Sorry, that is not a valid choice.';
const NOT_HEARD = 'Sorry, I did not get that.';

/** The key menu: two levels, each option of the first leading to a second, and an operator at both. */
export const KEY_MENU: MenuLevel = {
  intro: GREETING,
  options: [
    {
      choice: '1',
      label: 'orders and prices',
      next: {
        intro: 'Orders and prices.',
        options: [
          { choice: '1', label: 'a new order' },
          { choice: '2', label: 'prices and quotes' },
          { choice: '0', label: 'anything else' },
        ],
      },
    },
    {
      choice: '2',
      label: 'deliveries, billing and returns',
      next: {
        intro: 'Deliveries, billing and returns.',
        options: [
          { choice: '1', label: 'deliveries' },
          { choice: '2', label: 'billing' },
          { choice: '3', label: 'returns' },
          { choice: '0', label: 'anything else' },
        ],
      },
    },
    { choice: '0', label: 'anything else' },
  ],
};

/** The spoken menu: one level of department names. */
export const SPOKEN_MENU: MenuLevel = {
  intro: GREETING,
  options: [
    { choice: 'orders', label: 'orders' },
    { choice: 'deliveries', label: 'deliveries' },
    { choice: 'billing', label: 'billing' },
    { choice: 'operator', label: 'operator' },
  ],
};

/** The queue's recording, before its music. */
export const HOLD_ANNOUNCEMENT = `${GREETING} All of our agents are busy right now. Please hold; your call is important to us.`;
/** How long the queue's music plays before a person picks up. */
export const HOLD_MUSIC_MS = 60_000;

/** What a level says: its intro and each option, as a caller hears it. */
export function menuPrompt(level: MenuLevel, kind: MenuKind): string {
  if (kind === 'keys') return [level.intro, ...level.options.map((o) => `For ${o.label}, press ${o.choice}.`)].join(' ');
  const words = level.options.map((o) => o.choice);
  return `${level.intro} Please say the department you need: ${words.slice(0, -1).join(', ')}, or ${words.at(-1)}.`;
}

/** What the menu says after the caller's move, and whether it has put them through to a person. */
export interface MenuStep {
  say: string;
  connected: boolean;
}

export class SandboxMenu {
  private level: MenuLevel;

  constructor(readonly kind: MenuKind) {
    this.level = kind === 'keys' ? KEY_MENU : SPOKEN_MENU;
  }

  /** What the menu says first, as it picks up. */
  opening(): string {
    return menuPrompt(this.level, this.kind);
  }

  /** The caller pressed a key: the key menu goes on with it, or says it is not valid and repeats; the spoken menu repeats. */
  pressed(key: string): MenuStep {
    if (this.kind === 'spoken') return this.again(NOT_HEARD);
    return this.choose(key, NOT_VALID);
  }

  /** The caller said `words`: the spoken menu takes the option they name, or repeats; the key menu waits for a key. */
  said(words: string): MenuStep | null {
    if (this.kind === 'keys') return null;
    const named = this.level.options.find((o) => new RegExp(`\\b${o.choice}\\b`, 'i').test(words));
    return this.choose(named?.choice ?? '', NOT_HEARD);
  }

  /** Nothing came after the prompt: it says it again. */
  silence(): MenuStep {
    return this.again(NOT_HEARD);
  }

  private choose(choice: string, refusal: string): MenuStep {
    const option = this.level.options.find((o) => o.choice === choice);
    if (!option) return this.again(refusal);
    if (!option.next) return { say: CONNECTING, connected: true };
    this.level = option.next;
    return { say: menuPrompt(this.level, this.kind), connected: false };
  }

  private again(refusal: string): MenuStep {
    return { say: `${refusal} ${menuPrompt(this.level, this.kind)}`, connected: false };
  }
}
