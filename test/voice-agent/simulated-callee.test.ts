import { expect } from 'chai';
import type { FieldDefinition } from '../../server/src/generated/types.gen.js';
import { SimulatedCallee } from '../../server/src/voice-agent/simulated-callee.js';
import { EN } from '../../server/src/conversation/lexicon-en.js';
import { DE } from '../../server/src/conversation/lexicon-de.js';
import { hashText, seededRandom } from '../../server/src/voice-agent/seeded-random.js';

const FIELDS: FieldDefinition[] = [
  { name: 'closing_time', description: 'Closing time on Sunday' },
  { name: 'open_sunday', type: 'boolean' },
  { name: 'staff_count', type: 'number' },
  { name: 'manager_name' },
  { name: 'contact_email' },
];

const callee = (callId: string, fields = FIELDS, language = 'en-US'): SimulatedCallee => new SimulatedCallee({ callId, language, fields });

describe('simulated callee', () => {
  it('decides the same answers for the same call id', () => {
    expect(callee('call_a').knownAnswers()).to.deep.equal(callee('call_a').knownAnswers());
    expect(callee('call_a').answer('staff_count')).to.deep.equal(callee('call_a').answer('staff_count'));
    const distinct = new Set(Array.from({ length: 30 }, (_, i) => JSON.stringify(callee(`call_${i}`).knownAnswers())));
    expect(distinct.size).to.be.above(25);
  });

  it('answers about 70% of the fields and does not know the rest', () => {
    let unknown = 0;
    let total = 0;
    for (let i = 0; i < 400; i += 1) {
      for (const value of Object.values(callee(`call_share_${i}`).knownAnswers())) {
        total += 1;
        if (value === null) unknown += 1;
      }
    }
    expect(unknown / total).to.be.within(0.25, 0.4);
  });

  it('knows at least one and not all fields of every set of three or more', () => {
    for (let i = 0; i < 300; i += 1) {
      const fields = FIELDS.slice(0, 3 + (i % 3));
      const values = Object.values(callee(`call_mix_${i}`, fields).knownAnswers());
      expect(values, `call_mix_${i}`).to.include(null);
      expect(
        values.some((v) => v !== null),
        `call_mix_${i}`,
      ).to.equal(true);
    }
  });

  it('answers each field with a value of its declared type, or says it does not know', () => {
    for (let i = 0; i < 200; i += 1) {
      const c = callee(`call_type_${i}`);
      for (const field of FIELDS) {
        const { text, value } = c.answer(field.name);
        if (value === null) {
          expect(EN.callee.dontKnow).to.include(text);
          continue;
        }
        expect(typeof value).to.equal(field.type ?? 'string');
        if (field.type === 'boolean') expect(value ? EN.callee.yes : EN.callee.no).to.include(text);
      }
    }
  });

  it('picks string values that fit the field: a time for a closing time, a name for a name, an address for an email', () => {
    const seen: Record<string, Set<unknown>> = { closing_time: new Set(), manager_name: new Set(), contact_email: new Set() };
    for (let i = 0; i < 200; i += 1) {
      const truth = callee(`call_kind_${i}`).knownAnswers();
      for (const name of Object.keys(seen)) if (truth[name] !== null) seen[name].add(truth[name]);
    }
    expect([...seen.closing_time].every((v) => EN.callee.values.time!.includes(v as string))).to.equal(true);
    expect([...seen.manager_name].every((v) => EN.callee.values.name!.includes(v as string))).to.equal(true);
    expect([...seen.contact_email].every((v) => /^[a-z]+@example\.(com|org|net)$/.test(v as string))).to.equal(true);
    expect(seen.closing_time.size).to.be.above(3);
  });

  it('says numbers as integers, decimals and words, sometimes with a unit', () => {
    const texts: string[] = [];
    for (let i = 0; i < 300; i += 1) {
      const fields: FieldDefinition[] = [{ name: 'wait', type: 'number', description: 'waiting time in hours' }];
      const { text, value } = callee(`call_num_${i}`, fields).answer('wait');
      if (value !== null) texts.push(text);
    }
    expect(texts.some((t) => /\d+\.\d/.test(t))).to.equal(true);
    expect(texts.some((t) => /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\b/i.test(t))).to.equal(true);
    expect(texts.some((t) => /\b\d+ hours\b/.test(t))).to.equal(true);
  });

  it('speaks German with a decimal comma', () => {
    const texts: string[] = [];
    for (let i = 0; i < 200; i += 1) {
      const { text, value } = callee(`call_de_${i}`, [{ name: 'count', type: 'number' }], 'de-DE').answer('count');
      if (value !== null) texts.push(text);
      else expect(DE.callee.dontKnow).to.include(text);
    }
    expect(texts.some((t) => /\d+,\d/.test(t))).to.equal(true);
    expect(texts.some((t) => /\d+\.\d/.test(t))).to.equal(false);
  });

  it('refuses to answer a field it was not told about', () => {
    expect(() => callee('call_x').answer('nope')).to.throw('the callee was not told about field nope');
  });

  it('draws from a seeded generator: the same seed gives the same draws', () => {
    expect(hashText('call_1')).to.equal(hashText('call_1'));
    expect(hashText('call_1')).to.not.equal(hashText('call_2'));
    const a = seededRandom('x');
    const b = seededRandom('x');
    const draws = Array.from({ length: 5 }, () => a.next());
    expect(draws).to.deep.equal(Array.from({ length: 5 }, () => b.next()));
    for (const d of draws) expect(d).to.be.within(0, 1);
  });
});
