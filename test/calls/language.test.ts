// Language inference from the objective (ELD for Latin-script languages, the script for Hebrew), and the
// confidence rule: too few letters, an unreliable detection or a runner-up within 90% of the winner is auto.
import { expect } from 'chai';
import { DEFAULT_LANGUAGES, languageDetectorReady, resolveLanguage } from '../../server/src/calls/language.js';

const infer = (objective: string, region = 'US', supported: readonly string[] = DEFAULT_LANGUAGES) => resolveLanguage({ objective, region }, supported);

describe('language inference', () => {
  before(() => languageDetectorReady);
  for (const [objective, language] of [
    ['Chiedi se il panificio è aperto la domenica e fino a che ora.', 'it-IT'],
    ['Vraag of de bakkerij op zondag open is en tot hoe laat.', 'nl-NL'],
    ['Appelez pour confirmer le rendez-vous de demain matin.', 'fr-FR'],
    ['Call John about the meeting tomorrow', 'en-US'],
  ] as const) {
    it(`infers ${language} from "${objective}"`, () => {
      expect(infer(objective)).to.deep.equal({ ok: true, language, languageSource: 'inferred' });
    });
  }

  it('pairs the language with the destination when natural: French to Canada is fr-CA, English to Britain en-GB', () => {
    expect(infer('Appelez pour confirmer le rendez-vous de demain matin.', 'CA')).to.include({ language: 'fr-CA', languageSource: 'inferred' });
    expect(infer('Call John about the meeting tomorrow', 'GB')).to.include({ language: 'en-GB', languageSource: 'inferred' });
  });

  for (const [why, objective] of [
    ['words shared by many languages', 'Hotel Taxi Restaurant Menu Radio'],
    ['letters that make no language', 'asdf qwer zxcv uiop hjkl'],
    ['Portuguese scoring too close to Spanish', 'Pergunte se a padaria abre no domingo e até que horas.'],
    ['fewer than 15 letters', 'Bonjour Madame'],
  ] as const) {
    it(`falls back to auto for ${why}`, () => {
      expect(infer(objective, 'IL')).to.deep.equal({ ok: true, language: 'he-IL', languageSource: 'auto' });
    });
  }

  it('detects only among the languages the agent speaks', () => {
    expect(infer('Chiedi se il panificio è aperto la domenica e fino a che ora.', 'US', ['en', 'fr'])).to.not.include({ language: 'it-IT' });
    expect(infer('התקשר למרפאת השיניים ובקש להזיז את התור שלי', 'US', ['en'])).to.deep.equal({ ok: true, language: 'en-US', languageSource: 'auto' });
  });
});
