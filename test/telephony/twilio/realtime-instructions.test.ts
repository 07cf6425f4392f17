// What the realtime model is told for a call: instructions from the brief, and the session it is given.
import { expect } from 'chai';
import { calleeTime } from '../../../server/src/conversation/callee-time.js';
import { languageName, realtimeInstructions } from '../../../server/src/voice-agent/realtime-instructions.js';
import { BETA_PROTOCOL, GA_PROTOCOL } from '../../../server/src/voice-agent/realtime-protocol.js';

const END_CALL = {
  type: 'function',
  name: 'end_call',
  description: 'Hang up the phone call. Call it only after you have said goodbye.',
  parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Why the call is ending, in a few words.' } }, required: [] },
};

const OPT_OUT = {
  type: 'function',
  name: 'record_opt_out',
  description:
    'Record that the person asked not to be called again (to stop calling, to be taken off the list). Call it as soon as they ask; then apologise briefly, confirm they will not be called again, say goodbye and call end_call.',
  parameters: { type: 'object', properties: {}, required: [] },
};
const VOICEMAIL = {
  type: 'function',
  name: 'voicemail_detected',
  description:
    'Call it, and say nothing, when what you hear is an answering machine or voicemail greeting (asks to leave a message, says nobody can take the call, a beep) rather than a person. Never call it for a person, even one who greets you at length.',
  parameters: { type: 'object', properties: {}, required: [] },
};
const PRESS_KEYS = {
  type: 'function',
  name: 'press_keys',
  description:
    'Press keys on the phone keypad, as tones on the line, after what you have just said: to choose in an automated menu ("press 1 for sales"), dial an extension, or type a number you were asked to enter. You are answered once the keys have played; say nothing then, and answer what the line says next.',
  parameters: {
    type: 'object',
    properties: { digits: { type: 'string', description: 'The keys in order: 0-9, * and #, A-D; w for a half-second pause between keys. At most 32.' } },
    required: ['digits'],
  },
};
const WAIT_ON_HOLD = {
  type: 'function',
  name: 'wait_on_hold',
  description:
    'Call it, and say nothing, when you are put on hold: you are asked to hold or wait, you hear hold music, or a recording such as "please hold" or "your call is important to us". You then hear nothing until someone speaks: answer a person where the conversation was; for a recording, call it again.',
  parameters: { type: 'object', properties: {}, required: [] },
};
const KEEP_LISTENING = {
  type: 'function',
  name: 'keep_listening',
  description:
    'Call it, and say nothing, when an automated menu or recording is speaking and there is nothing to answer yet: the menu has not yet offered the option you need, or it says it is connecting you. You go on listening.',
  parameters: { type: 'object', properties: {}, required: [] },
};
/** Turn-taking for a phone line, by default: server VAD that needs real speech, and the response not cut by the server. */
const TURN_DETECTION = { type: 'server_vad', threshold: 0.6, prefix_padding_ms: 300, silence_duration_ms: 500, create_response: true, interrupt_response: false };

const brief = {
  callId: 'c1',
  objective: 'Book a table for two at 8 pm on Friday.',
  context: null,
  fields: [{ name: 'booked', type: 'boolean' as const }, { name: 'deposit_eur', type: 'number' as const, description: 'The deposit asked for, in euros.' }, { name: 'contactName' }],
  language: 'fr-FR',
  voice: 'sage',
};

describe('realtime instructions', () => {
  it('state the objective and ask for every field by name, kind and meaning, in the call language', () => {
    expect(realtimeInstructions(brief).split('\n')).to.include.members([
      'Speak French (France) (fr-FR) throughout, even if the other person switches language.',
      'Objective: Book a table for two at 8 pm on Friday.',
      'Find out each of the following, asking for them one by one:',
      '- booked (yes or no): booked',
      '- deposit_eur (a number): The deposit asked for, in euros',
      '- contactName (a short answer): contact name',
      'When you have what you need, or the person cannot or will not help, thank them, say goodbye, and then call the end_call function to hang up.',
    ]);
  });

  it('leave out the context and the field list when there are none', () => {
    const text = realtimeInstructions({ ...brief, fields: [], context: null });
    expect(text).not.to.include('Context:');
    expect(text).not.to.include('Find out');
  });

  it('include the context when there is one', () => {
    expect(realtimeInstructions({ ...brief, context: 'Ask for a table by the window.' })).to.include('\nContext: Ask for a table by the window.\n');
  });

  it('follow the callee’s language on a call placed with language auto, and give the transcriber no language hint', () => {
    const mirrored = { ...brief, language: 'de-DE', mirrorLanguage: true };
    expect(realtimeInstructions(mirrored)).to.include('Start in German (Germany) (de-DE); if the other person speaks another language, switch to theirs and keep to it.');
    const gaInput = (b: typeof brief) => (GA_PROTOCOL.sessionUpdate(b).session.audio as { input: { transcription: unknown } }).input.transcription;
    expect(gaInput(mirrored)).to.deep.equal({ model: 'gpt-4o-mini-transcribe' });
    expect(gaInput(brief)).to.deep.equal({ model: 'gpt-4o-mini-transcribe', language: 'fr' });
    expect(BETA_PROTOCOL.sessionUpdate(mirrored).session.input_audio_transcription).to.deep.equal({ model: 'whisper-1' });
    expect(BETA_PROTOCOL.sessionUpdate(brief).session.input_audio_transcription).to.deep.equal({ model: 'whisper-1', language: 'fr' });
  });

  it('say on whose behalf the agent calls, the recording, that it is an AI, the time where the callee is, the number to call back, reading back, menus and holding', () => {
    const told = {
      ...brief,
      context: 'The booking is under the name Martin.',
      onBehalfOf: "Tony's Pizzeria",
      callbackNumber: '+33142685300',
      recordingNotice: true,
      calleeTime: 'Tuesday, 3 March 2026, 14:05 (Europe/Paris)',
    };
    const lines = realtimeInstructions(told).split('\n');
    expect(lines.slice(0, 5)).to.deep.equal([
      "You are an AI assistant making a phone call on behalf of Tony's Pizzeria. You are speaking with the person who answered.",
      'Speak French (France) (fr-FR) throughout, even if the other person switches language.',
      "Introduce yourself briefly as an AI assistant calling on behalf of Tony's Pizzeria, then pursue the objective. Be polite and concise: one question at a time, short sentences.",
      'This call is recorded: say so in your introduction.',
      'Whenever you are asked whether you are a person, a machine or an AI, say that you are an AI assistant. Never claim or suggest that you are a person.',
    ]);
    expect(lines).to.include.members([
      'Context: The booking is under the name Martin.',
      'The context is private background for you: never read it out or quote it; use only what the objective needs.',
      'Where the person is, it is now Tuesday, 3 March 2026, 14:05 (Europe/Paris).',
      'If the person asks for a number to call back, give +33142685300, the number you are calling from, digit by digit.',
      'When the person gives you a number, a date, a time, an amount or a name to note, read it back to them to confirm it.',
      'Never invent information and never agree to anything beyond the objective. If you reach a voicemail, say goodbye.',
      'Automated phone menus: never speak to a menu while it talks. Listen to its options and choose the one that leads towards the objective; if none fits, choose the operator or "anything else".',
      '- When it asks you to press a key, call the press_keys function with that key and say nothing. You are answered once the keys have played; say nothing then either, and answer what the menu says next.',
      "- When it asks you to say the option, say only the option's words, briefly.",
      '- While it is still listing options, or says it is connecting you, call the keep_listening function and say nothing.',
      '- A menu that repeats itself, or says the choice is not valid, did not take it: choose again.',
      '- To dial an extension or type a number you were asked for, call press_keys too.',
      'Keys the person presses on their phone reach you as a note such as "[The callee pressed 1 2]".',
      'Holding: when you are put on hold (the person asks you to hold or to wait, you hear hold music, or a recording such as "please hold" or "your call is important to us"), say you will hold if a person asked, then call the wait_on_hold function and say nothing more. You hear nothing until someone speaks: when it is a person, greet them and carry on where the conversation was; when it is the recording again, call wait_on_hold again and say nothing. If a person asks for a long wait, you may offer to call back later instead.',
    ]);
  });

  it('call on behalf of a customer when no one is named, and say nothing of the recording when the notice is off', () => {
    const text = realtimeInstructions({ ...brief, recordingNotice: false });
    expect(text.split('\n')[0]).to.equal('You are an AI assistant making a phone call on behalf of a customer. You are speaking with the person who answered.');
    expect(text).not.to.include('recorded');
    expect(text).to.include('Whenever you are asked whether you are a person, a machine or an AI, say that you are an AI assistant.');
    expect(text).not.to.include('private background');
  });

  it("give today's date and time in the number's zone, or zones, or UTC saying why", () => {
    const at = Date.UTC(2026, 2, 3, 13, 5);
    expect(calleeTime('+33142685300', at)).to.equal('Tuesday, 3 March 2026, 14:05 (Europe/Paris)');
    expect(calleeTime('+14155550123', at)).to.equal('Tuesday, 3 March 2026, 05:05 (America/Los_Angeles)');
    expect(calleeTime('+12085550123', at)).to.equal('Tuesday, 3 March 2026, 06:05 (America/Boise) or Tuesday, 3 March 2026, 05:05 (America/Los_Angeles)');
    expect(calleeTime('+18005550100', at)).to.match(/^Tuesday, 3 March 2026, 13:05 \(UTC; the number is in \d+ time zones, so the person's own is not known\)$/);
    expect(calleeTime('+88234', at)).to.equal("Tuesday, 3 March 2026, 13:05 (UTC; the person's own time zone is not known)");
  });

  it('name languages in English, and give an unknown tag as it is', () => {
    expect(languageName('he-IL')).to.equal('Hebrew (Israel)');
    expect(languageName('pt')).to.equal('Portuguese');
    expect(languageName('not a tag')).to.equal('not a tag');
  });

  it('set up a GA session: type realtime, audio output, mu-law audio objects both ways, the voice, transcription and VAD nested under audio', () => {
    expect(GA_PROTOCOL.sessionUpdate(brief)).to.deep.equal({
      type: 'session.update',
      session: {
        type: 'realtime',
        output_modalities: ['audio'],
        instructions: realtimeInstructions(brief),
        audio: {
          input: {
            format: { type: 'audio/pcmu' },
            transcription: { model: 'gpt-4o-mini-transcribe', language: 'fr' },
            noise_reduction: { type: 'near_field' },
            turn_detection: TURN_DETECTION,
          },
          output: { format: { type: 'audio/pcmu' }, voice: 'sage' },
        },
        tools: [END_CALL, OPT_OUT, VOICEMAIL, PRESS_KEYS, WAIT_ON_HOLD, KEEP_LISTENING],
        tool_choice: 'auto',
      },
    });
    expect(GA_PROTOCOL.headers).to.deep.equal({});
    expect(GA_PROTOCOL.events).to.deep.equal({ audioDelta: 'response.output_audio.delta', audioDone: 'response.output_audio.done', audioTranscriptDone: 'response.output_audio_transcript.done' });
  });

  it('set up a beta session with its flat fields and g711_ulaw both ways, behind the OpenAI-Beta header', () => {
    expect(BETA_PROTOCOL.sessionUpdate(brief)).to.deep.equal({
      type: 'session.update',
      session: {
        modalities: ['audio', 'text'],
        instructions: realtimeInstructions(brief),
        voice: 'sage',
        input_audio_format: 'g711_ulaw',
        output_audio_format: 'g711_ulaw',
        input_audio_transcription: { model: 'whisper-1', language: 'fr' },
        input_audio_noise_reduction: { type: 'near_field' },
        turn_detection: TURN_DETECTION,
        tools: [END_CALL, OPT_OUT, VOICEMAIL, PRESS_KEYS, WAIT_ON_HOLD, KEEP_LISTENING],
        tool_choice: 'auto',
      },
    });
    expect(BETA_PROTOCOL.headers).to.deep.equal({ 'OpenAI-Beta': 'realtime=v1' });
    expect(BETA_PROTOCOL.events).to.deep.equal({ audioDelta: 'response.audio.delta', audioDone: 'response.audio.done', audioTranscriptDone: 'response.audio_transcript.done' });
  });
});
