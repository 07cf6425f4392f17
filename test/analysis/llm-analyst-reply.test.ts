// The check of the model's reply against the schema built from the fields: each broken rule named, by path and
// rule, never by value; any valid field name, __proto__ included, read like the rest.
import { expect } from 'chai';
import { analysisSchema, checkReply } from '../../server/src/analysis/analysis-schema.js';
import type { FieldDefinition } from '../../server/src/generated/types.gen.js';

const fields: FieldDefinition[] = [{ name: 'open_sunday', type: 'boolean' }, { name: 'closing_time' }, { name: 'staff_count', type: 'number' }];
const reason = (content: unknown, f: readonly FieldDefinition[] = fields) => {
  const check = checkReply(typeof content === 'string' ? content : JSON.stringify(content), f);
  return check.ok ? 'ok' : check.reason;
};

describe('LLM analyst reply check', () => {
  it('accepts values of the declared types and nulls, and trims the summary', () => {
    const evidence = { open_sunday: { turn: 3, quote: 'no' }, closing_time: null, staff_count: { turn: 5, quote: 'two and a half' } };
    expect(checkReply(JSON.stringify({ summary: ' Open. ', extracted: { open_sunday: false, closing_time: null, staff_count: 2.5 }, evidence }), fields)).to.deep.equal({
      ok: true,
      analysis: { summary: 'Open.', optOut: false, extracted: { open_sunday: false, closing_time: null, staff_count: 2.5 }, evidence },
    });
  });

  it('names every broken rule by path', () => {
    expect(reason([1])).to.equal('the reply did not match the schema (/ must be an object)');
    expect(reason('null')).to.equal('the reply did not match the schema (/ must be an object)');
    const nulls = { open_sunday: null, closing_time: null, staff_count: null };
    expect(reason({ summary: 3, extracted: [], evidence: nulls, note: 'x' })).to.equal(
      'the reply did not match the schema (/ must not have other properties; /summary must be a string; /extracted must be an object)',
    );
    expect(reason({ extracted: { open_sunday: 'yes', closing_time: 18, secret: '555-0199' }, evidence: nulls })).to.equal(
      'the reply did not match the schema (/ must have property summary; /extracted must have property staff_count; /extracted must not have other properties; ' +
        '/extracted/open_sunday must be boolean or null; /extracted/closing_time must be string or null)',
    );
    expect(reason({ summary: 'Open.', extracted: { open_sunday: true, closing_time: '6 pm', staff_count: '4' }, evidence: nulls })).to.equal(
      'the reply did not match the schema (/extracted/staff_count must be number or null)',
    );
    expect(reason({ summary: 'Open.', extracted: nulls })).to.equal('the reply did not match the schema (/ must have property evidence)');
    expect(reason({ summary: 'Open.', extracted: nulls, evidence: { open_sunday: { turn: 1.5, quote: 3 }, closing_time: 'line 2', staff_count: { turn: 2 } } })).to.equal(
      'the reply did not match the schema (/evidence/open_sunday/turn must be an integer; /evidence/open_sunday/quote must be a string; ' +
        '/evidence/closing_time must be an object or null; /evidence/staff_count must have property quote; /evidence/staff_count/quote must be a string)',
    );
  });

  it('without fields wants the summary alone', () => {
    expect(checkReply('{"summary":"Spoke to the manager."}', [])).to.deep.equal({ ok: true, analysis: { summary: 'Spoke to the manager.', optOut: false, extracted: null, evidence: null } });
    expect(reason({ summary: 'Spoke.', extracted: {} }, [])).to.equal('the reply did not match the schema (/ must not have other properties)');
  });

  it('reads fields named __proto__ and constructor like any other', () => {
    const odd: FieldDefinition[] = [{ name: '__proto__', type: 'number' }, { name: 'constructor' }];
    const schema = analysisSchema(odd) as { properties: { extracted: { properties: object; required: string[] } } };
    expect(Object.keys(schema.properties.extracted.properties)).to.deep.equal(['__proto__', 'constructor']);
    expect(schema.properties.extracted.required).to.deep.equal(['__proto__', 'constructor']);
    const ev = '"evidence":{"__proto__":{"turn":0,"quote":"3"},"constructor":null}';
    const check = checkReply(`{"summary":"x","extracted":{"__proto__":3,"constructor":null},${ev}}`, odd);
    expect(check.ok && JSON.stringify(check.analysis.extracted)).to.equal('{"__proto__":3,"constructor":null}');
    expect(check.ok && JSON.stringify(check.analysis.evidence)).to.equal('{"__proto__":{"turn":0,"quote":"3"},"constructor":null}');
    expect(reason(`{"summary":"x","extracted":{"constructor":null},${ev}}`, odd)).to.equal('the reply did not match the schema (/extracted must have property __proto__)');
    expect(reason(`{"summary":"x","extracted":{"__proto__":"3","constructor":null},${ev}}`, odd)).to.equal('the reply did not match the schema (/extracted/__proto__ must be number or null)');
  });
});
