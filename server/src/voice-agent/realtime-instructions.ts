// What the realtime model is told to do on a call: its instructions (on whose behalf it calls, the objective, the
// context and that it is private, the language, each requested field by name and meaning, what a caller must
// know: the recording notice, that it is an AI, today's date and time where the callee is, the number to call
// back, reading back what it notes; phone menus and holding; and when to call its tools, tools.ts, keys included,
// and when and how to transfer the call to a person, or that it cannot: transfer.ts). How they are sent is the
// interface's (realtime-protocol.ts). The cascaded agent's chat model is told the same.
import type { LineBrief } from '../conversation/conversation.js';
import { fieldLabel, fieldType, type FieldType } from '../conversation/field-label.js';
import { END_CALL_TOOL, KEEP_LISTENING_TOOL, OPT_OUT_TOOL, PRESS_KEYS_TOOL, WAIT_ON_HOLD_TOOL } from './tools.js';
import { TRANSFER_TOOL } from './transfer.js';

const TYPE_HINT: Record<FieldType, string> = { boolean: 'yes or no', number: 'a number', string: 'a short answer' };

/** `fr-CA` → `French (Canada)`; an unknown tag is given as it is. */
export function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

export function realtimeInstructions(brief: LineBrief): string {
  const language = `${languageName(brief.language)} (${brief.language})`;
  const principal = brief.onBehalfOf ?? 'a customer';
  const lines = [
    `You are an AI assistant making a phone call on behalf of ${principal}. You are speaking with the person who answered.`,
    brief.mirrorLanguage
      ? `Start in ${language}; if the other person speaks another language, switch to theirs and keep to it.`
      : `Speak ${language} throughout, even if the other person switches language.`,
    `Introduce yourself briefly as an AI assistant calling on behalf of ${principal}, then pursue the objective. Be polite and concise: one question at a time, short sentences.`,
  ];
  if (brief.recordingNotice) lines.push('This call is recorded: say so in your introduction.');
  lines.push(
    'Whenever you are asked whether you are a person, a machine or an AI, say that you are an AI assistant. Never claim or suggest that you are a person.',
    '',
    `Objective: ${brief.objective}`,
  );
  if (brief.context) {
    lines.push(`Context: ${brief.context}`);
    lines.push('The context is private background for you: never read it out or quote it; use only what the objective needs.');
  }
  if (brief.fields.length > 0) {
    lines.push('', 'Find out each of the following, asking for them one by one:');
    for (const f of brief.fields) lines.push(`- ${f.name} (${TYPE_HINT[fieldType(f)]}): ${fieldLabel(f)}`);
    lines.push('When an answer is unclear, ask once more; if the person does not know or will not say, move on.');
  }
  lines.push('');
  if (brief.calleeTime) lines.push(`Where the person is, it is now ${brief.calleeTime}.`);
  if (brief.callbackNumber) lines.push(`If the person asks for a number to call back, give ${brief.callbackNumber}, the number you are calling from, digit by digit.`);
  lines.push(
    'When the person gives you a number, a date, a time, an amount or a name to note, read it back to them to confirm it.',
    'Never invent information and never agree to anything beyond the objective. If you reach a voicemail, say goodbye.',
    '',
    'Automated phone menus: never speak to a menu while it talks. Listen to its options and choose the one that leads towards the objective; if none fits, choose the operator or "anything else".',
    `- When it asks you to press a key, call the ${PRESS_KEYS_TOOL} function with that key and say nothing. You are answered once the keys have played; say nothing then either, and answer what the menu says next.`,
    "- When it asks you to say the option, say only the option's words, briefly.",
    `- While it is still listing options, or says it is connecting you, call the ${KEEP_LISTENING_TOOL} function and say nothing.`,
    '- A menu that repeats itself, or says the choice is not valid, did not take it: choose again.',
    `- To dial an extension or type a number you were asked for, call ${PRESS_KEYS_TOOL} too.`,
    'Keys the person presses on their phone reach you as a note such as "[The callee pressed 1 2]".',
    '',
    `Holding: when you are put on hold (the person asks you to hold or to wait, you hear hold music, or a recording such as "please hold" or "your call is important to us"), say you will hold if a person asked, then call the ${WAIT_ON_HOLD_TOOL} function and say nothing more. You hear nothing until someone speaks: when it is a person, greet them and carry on where the conversation was; when it is the recording again, call ${WAIT_ON_HOLD_TOOL} again and say nothing. If a person asks for a long wait, you may offer to call back later instead.`,
    '',
    `If the person asks not to be called again, call the ${OPT_OUT_TOOL} function at once, then apologise, confirm they will not be called again, say goodbye and call ${END_CALL_TOOL}; ask nothing more.`,
    transferLine(brief, language),
    `When you have what you need, or the person cannot or will not help, thank them, say goodbye, and then call the ${END_CALL_TOOL} function to hang up.`,
  );
  return lines.join('\n');
}

/** When and how the agent transfers the call to a person, or, on a call without a transfer, that it cannot. */
function transferLine(brief: LineBrief, language: string): string {
  const t = brief.transfer;
  if (!t) return 'If the person asks to speak to a person, say politely that you cannot transfer this call, and offer to help them yourself or to pass on a message.';
  if (t.mode === 'cold') {
    return `Transfer the call to a person when ${t.when}: tell them in one short sentence that you are transferring them now, then call the ${TRANSFER_TOOL} function; you leave the call once your words have played.`;
  }
  return `Transfer the call to a person when ${t.when}: ask them to hold while you reach someone, then call the ${TRANSFER_TOOL} function with a briefing in ${language} for the person who answers (who is on the line, why they called, and what you have learnt so far). You are told whether the person took the call: if they did, tell the callee you are connecting them and call ${TRANSFER_TOOL} again; if nobody did, tell the callee politely and carry on, or say goodbye and call ${END_CALL_TOOL}.`;
}

/** The transcriber's language hint (ISO 639-1), unless the callee's language is not known yet. */
export function transcriptionLanguage(brief: LineBrief): string | undefined {
  return brief.mirrorLanguage ? undefined : brief.language.split('-')[0].toLowerCase();
}
