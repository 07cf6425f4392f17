// The model's events as the link reads them: an audio delta as the server writes it is read by its shape, and reads
// exactly as JSON.parse reads it; any other message, a delta in another form included, is parsed.
import { expect } from 'chai';
import { readServerEvent } from '../../server/src/voice-agent/realtime-link.js';

const delta = Buffer.alloc(160, 0xd5).toString('base64');
const asSent = (type: string, fields: { itemId?: string; index?: string; delta?: string } = {}) =>
  `{"type":"${type}","event_id":"event_BiKJq19lARGrZNAFZrZD4","response_id":"resp_BiKJpDdSMQtdshxQy3rLd","item_id":"${fields.itemId ?? 'item_BiKJpbx1CnEus5VUwQoDA'}","output_index":${fields.index ?? '0'},"content_index":0,"delta":"${fields.delta ?? delta}"}`;

describe("the realtime model's events", () => {
  it('reads an audio delta as the server writes it, in either protocol, as JSON.parse does', () => {
    for (const text of [
      asSent('response.output_audio.delta'),
      asSent('response.audio.delta'),
      asSent('response.output_audio.delta', { delta: '' }),
      asSent('response.output_audio.delta', { delta: 'fw==' }),
      asSent('response.output_audio.delta', { index: '12' }),
      asSent('response.output_audio.delta', { itemId: 'item-1_a' }),
    ]) {
      expect(readServerEvent(text), text).to.deep.equal(JSON.parse(text));
    }
  });

  it('parses a delta in any other form, and drops what is not JSON', () => {
    for (const text of [
      asSent('response.output_audio.delta', { itemId: 'item\\"1' }),
      asSent('response.output_audio.delta', { itemId: 'ítem ☎ 1' }),
      asSent('response.output_audio.delta', { delta: 'a\\/b' }),
      asSent('response.output_audio.delta', { index: '1.5' }),
      asSent('response.output_audio_transcript.delta', { delta: 'Hello' }),
      `{"event_id":"e1","type":"response.output_audio.delta","item_id":"item_1","delta":"${delta}"}`,
      '{"type":"session.updated","session":{"type":"realtime"}}',
      '[1,2]',
    ]) {
      expect(readServerEvent(text), text).to.deep.equal(JSON.parse(text));
    }
    expect(readServerEvent(asSent('response.output_audio.delta', { index: '01' }))).to.equal(null);
    expect(readServerEvent(asSent('response.output_audio.delta', { itemId: 'item\u00011' }))).to.equal(null);
    expect(readServerEvent('"text"')).to.equal(null);
    expect(readServerEvent('null')).to.equal(null);
    expect(readServerEvent(asSent('response.output_audio.delta').slice(0, -1))).to.equal(null);
  });
});
