// The placement worker thread (placement-worker.ts): ELD's detection and libphonenumber's parse computed ahead
// give the same answers as in-thread, go over in one message per turn, nothing is sent that needs no worker, and
// a worker that dies or falls silent costs a placement nothing but the in-thread computation.
import { expect } from 'chai';
import { fromFacts, parseE164, withParsedNumbers } from '../../server/src/placement/caller-id.js';
import { DEFAULT_LANGUAGES, languageDetectorReady, resolveLanguage, type AheadDetection } from '../../server/src/placement/language.js';
import { placementAhead } from '../../server/src/placement/placement-ahead.js';
import { PlacementWorker, placementWorker } from '../../server/src/placement/placement-worker.js';
import { startServer } from '../support/server.js';
import { ACCEPTED, BLOCKED } from './destination-cases.js';

const TEXTS = [
  'Ask whether the bakery is open on Sunday and until what time.',
  'Demandez si la boulangerie est ouverte le dimanche et jusqu’à quelle heure.',
  'Pregunta si la panadería abre el domingo y hasta qué hora.',
  'Frag, ob die Bäckerei am Sonntag geöffnet hat und bis wann.',
  'Chiedi se il panificio è aperto la domenica e fino a che ora.',
  'Vraag of de bakkerij op zondag open is en tot hoe laat.',
  'Pergunte se a padaria abre no domingo e até que horas.',
  'asdf qwer zxcv uiop hjkl',
];

describe('the placement worker', function () {
  this.timeout(20_000);
  let worker: PlacementWorker;
  before(() => languageDetectorReady());
  afterEach(() => worker?.close());

  it('gives every placement the language the in-thread detection gives, and answers them itself', async () => {
    worker = new PlacementWorker();
    await worker.whenReady();
    for (const [i, objective] of TEXTS.entries()) {
      const body = { to: '+14155550123', objective, context: i % 2 ? 'Be brief.' : undefined };
      const ahead = (await placementAhead(body, DEFAULT_LANGUAGES, worker)).language;
      expect(ahead?.text, objective).to.equal(`${objective} ${body.context ?? ''}`);
      const input = { ...body, region: 'US' };
      expect(resolveLanguage(input, DEFAULT_LANGUAGES, ahead), objective).to.deep.equal(resolveLanguage(input, DEFAULT_LANGUAGES));
    }
    expect(worker.answered).to.equal(TEXTS.length * 2); // each text and its `to`
    expect(resolveLanguage({ objective: TEXTS[1], region: 'CA' }, DEFAULT_LANGUAGES, await language({ objective: TEXTS[1] }))).to.deep.equal({
      ok: true,
      language: 'fr-CA',
      languageSource: 'inferred',
    });
  });

  const language = async (body: unknown): Promise<AheadDetection | undefined> => (await placementAhead(body, DEFAULT_LANGUAGES, worker)).language;

  it('parses every number as the in-thread parse does: each guardrail trap, each allowed country, invalid ones', async () => {
    worker = new PlacementWorker();
    await worker.whenReady();
    const texts = [...BLOCKED.map((c) => c.to), ...ACCEPTED.map((c) => c.to), '+11234567890', '+14155550123', '+447700900123', '+999', '14155550123', '+1 415 555 0123'];
    const facts = await Promise.all(texts.map((t) => worker.parseNumber(t)));
    for (let i = 0; i < facts.length; i++) expect(fromFacts(facts[i]!), texts[i]).to.deep.equal(parseE164(texts[i]!));
    expect(facts.filter((f) => f![0]).length).to.be.greaterThan(BLOCKED.length);
  });

  it('has its parse used by parseE164 only while withParsedNumbers runs, and only for that text', async () => {
    const numbers = new Map([['+14155550123', { valid: false }]]);
    withParsedNumbers(numbers, () => {
      expect(parseE164('+14155550123')).to.deep.equal({ valid: false });
      expect(parseE164('+14155550124').valid).to.equal(true);
    });
    expect(parseE164('+14155550123').valid).to.equal(true);
  });

  it('sends the texts asked for in one turn in one message, and gives each its own answer', async () => {
    worker = new PlacementWorker();
    await worker.whenReady();
    const bodies = Array.from({ length: 64 }, (_, i) => ({ objective: `${TEXTS[i % 7]} (${i})` }));
    const before = worker.batchesSent;
    const aheads = await Promise.all(bodies.map(language));
    expect(worker.batchesSent - before).to.equal(1);
    const expected = ['en', 'fr', 'es', 'de', 'it', 'nl', 'pt'];
    aheads.forEach((a, i) => {
      expect(a?.text).to.equal(`${bodies[i].objective} `);
      expect(a?.raw[0]).to.equal(expected[i % 7]);
    });
  });

  it('is sent no text that needs no ELD: a language given, too few letters, Hebrew, or no objective string', async () => {
    worker = new PlacementWorker();
    await worker.whenReady();
    const none = [
      { objective: TEXTS[0], language: 'en-GB' },
      { objective: TEXTS[0], language: 'auto' },
      { objective: 'Bonjour Madame' },
      { objective: 'שאל אם המאפייה פתוחה ביום ראשון ועד איזו שעה' },
      { objective: ['call'] },
      { objective: TEXTS[0], context: 5 },
      null,
      [TEXTS[0]],
    ];
    for (const body of none) expect(await language(body), JSON.stringify(body)).to.equal(undefined);
    expect(worker.answered).to.equal(0);
  });

  it('answers null while starting, so the placement detects in-thread, and is used once ready', async () => {
    worker = new PlacementWorker();
    expect(await worker.detect(TEXTS[0], 'en,fr')).to.equal(null);
    expect(await worker.parseNumber('+14155550123')).to.equal(null);
    await worker.whenReady();
    expect((await worker.detect(TEXTS[0], 'en,fr'))?.[0]).to.equal('en');
  });

  it('answers null for a batch in flight when the worker dies, and starts a fresh one later', async () => {
    worker = new PlacementWorker({ script: new URL('./support/crashing-placement-worker.mjs', import.meta.url), restartAfterMs: 0 });
    await worker.whenReady();
    const started = Date.now();
    expect(await Promise.all([worker.detect(TEXTS[0], 'en'), worker.detect(TEXTS[1], 'fr')])).to.deep.equal([null, null]);
    expect(Date.now() - started).to.be.lessThan(2000);
    await worker.whenReady(); // a fresh thread (this one dies again on its next batch)
  });

  it('gives up on a silent worker after its timeout: null, and the thread is ended', async () => {
    worker = new PlacementWorker({ script: new URL('./support/silent-placement-worker.mjs', import.meta.url), timeoutMs: 150, restartAfterMs: 60_000 });
    await worker.whenReady();
    const started = Date.now();
    expect(await worker.detect(TEXTS[0], 'en')).to.equal(null);
    const waited = Date.now() - started;
    expect(waited).to.be.within(140, 2000);
    // Ended, and not started again within restartAfterMs: asked at once, it answers null without a message.
    const sent = worker.batchesSent;
    expect(await worker.detect(TEXTS[0], 'en')).to.equal(null);
    expect(worker.batchesSent).to.equal(sent);
  });
});

describe('a placement whose language is inferred', function () {
  this.timeout(20_000);
  it('has it detected, and its number parsed, on the process placement worker', async () => {
    const srv = await startServer('sqlite');
    try {
      const alice = await srv.tenant({ rateLimit: 100 });
      await placementWorker.whenReady();
      const before = placementWorker.answered;
      const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: TEXTS[1] } });
      expect(res.status).to.equal(202);
      expect(res.body).to.include({ language: 'fr-FR', languageSource: 'inferred' });
      expect(placementWorker.answered - before).to.equal(2);
    } finally {
      await srv.close();
    }
  });
});
