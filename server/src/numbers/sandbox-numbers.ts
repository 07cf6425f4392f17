// Which outcome a sandbox number stands for: the fictional NANP range +1 NPA 555-01XX chooses it by its last two
// digits (the table is in telephony/sandbox/sandbox-carrier.ts). The sandbox carrier plays it on the line and the
// scripted agent plays the callee's side of it, so it sits below both.

export type SandboxScenario =
  | 'completed'
  | 'no_answer'
  | 'voicemail'
  | 'declined'
  | 'failed'
  | 'long'
  | 'drops'
  | 'silent'
  | 'opts_out'
  /** Answered and completed; on a live line the callee's manner tests the agent's turn-taking (telephony/sandbox/line-callee.ts). */
  | 'interrupts'
  | 'pauses'
  | 'talks_over'
  | 'noisy'
  /** A business line: a person comes on after a menu of keys, a menu of spoken options, or a wait on hold (conversation/sandbox-menus.ts). */
  | 'key_menu'
  | 'spoken_menu'
  | 'hold'
  /** Answered; after the agent's opening the callee asks to speak to a person (a transfer, when the call has one). */
  | 'asks_for_person'
  /** Nobody answers, as 555-0111: the transfer destination whose phone rings out. */
  | 'never_answers'
  /** Answered and completed; the callee first asks a question the agent answers through the call's first client tool. */
  | 'asks_question';

const BY_SUFFIX: Record<string, SandboxScenario> = {
  '11': 'no_answer',
  '12': 'voicemail',
  '13': 'declined',
  '14': 'failed',
  '15': 'long',
  '16': 'drops',
  '17': 'silent',
  '18': 'opts_out',
  '21': 'interrupts',
  '22': 'pauses',
  '23': 'talks_over',
  '24': 'noisy',
  '25': 'key_menu',
  '26': 'spoken_menu',
  '27': 'hold',
  '28': 'asks_for_person',
  '29': 'never_answers',
  '31': 'asks_question',
};

export function sandboxScenario(to: string): SandboxScenario {
  const m = /^\+1\d{3}55501(\d\d)$/.exec(to);
  return (m && BY_SUFFIX[m[1]]) || 'completed';
}
