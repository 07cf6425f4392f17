// Language inference from the objective (ELD for Latin-script languages, the script for Hebrew), and the
// confidence rule: too few letters, an unreliable detection or a runner-up within 90% of the winner is auto.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DEFAULT_LANGUAGES, languageDetectorReady, resolveLanguage } from '../../server/src/placement/language.js';

const infer = (objective: string, region = 'US', supported: readonly string[] = DEFAULT_LANGUAGES) => resolveLanguage({ objective, region }, supported);

describe('language inference', () => {
  before(() => languageDetectorReady());
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

  it('loads the detector only when asked: a process that imports the engine and the language module, and waits, has none loaded', async function () {
    this.timeout(20_000);
    // In a process of its own, so that no other test has loaded it yet. The engine is what a worker-only process
    // runs; a second's wait is well past what the load takes.
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const script = `
      const { resolveLanguage, languageDetectorReady, DEFAULT_LANGUAGES } = await import('./server/src/placement/language.ts');
      await import('./server/src/engine/default-engine.ts');
      await new Promise((r) => setTimeout(r, 1000));
      const ask = () => { try { return resolveLanguage({ objective: 'Call John about the meeting tomorrow', region: 'US' }, DEFAULT_LANGUAGES).language; } catch (e) { return e.message; } };
      const before = ask();
      await languageDetectorReady();
      console.log(JSON.stringify({ before, after: ask() }));`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    expect(JSON.parse(out)).to.deep.equal({ before: 'the language detector is still loading; await languageDetectorReady()', after: 'en-US' });
  });
});
