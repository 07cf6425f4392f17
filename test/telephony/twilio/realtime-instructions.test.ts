// What the realtime model is told for a call: instructions from the brief, and the session it is given.
import { expect } from 'chai';
import { languageName, realtimeInstructions, sessionUpdate } from '../../../server/src/voice-agent/realtime-instructions.js';

const brief = {
  callId: 'c1',
  objective: 'Book a table for two at 8 pm on Friday.',
  context: null,
  fields: [
    { name: 'booked', type: 'boolean' as const },
    { name: 'deposit_eur', type: 'number' as const, description: 'The deposit asked for, in euros.' },
    { name: 'contactName' },
  ],
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
    expect(sessionUpdate(mirrored).session.input_audio_transcription).to.deep.equal({ model: 'whisper-1' });
    expect(sessionUpdate(brief).session.input_audio_transcription).to.deep.equal({ model: 'whisper-1', language: 'fr' });
  });

  it('name languages in English, and give an unknown tag as it is', () => {
    expect(languageName('he-IL')).to.equal('Hebrew (Israel)');
    expect(languageName('pt')).to.equal('Portuguese');
    expect(languageName('not a tag')).to.equal('not a tag');
  });

  it('give the model the call’s voice and mu-law audio both ways', () => {
    expect(sessionUpdate(brief).session).to.deep.include({ voice: 'sage', input_audio_format: 'g711_ulaw', output_audio_format: 'g711_ulaw' });
  });
});
