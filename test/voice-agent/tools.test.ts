// The call's tools: offered to the model as function definitions in the registry's order, each run with what the
// call gives it.
import { expect } from 'chai';
import { pino } from 'pino';
import type { LiveLine } from '../../server/src/telephony/live-line.js';
import type { PressOutcome } from '../../server/src/voice-agent/keypad.js';
import { CALL_TOOLS, ToolRegistry, type Tool, type ToolContext } from '../../server/src/voice-agent/tools.js';

function context(over: Partial<ToolContext> = {}): ToolContext & { ended: number } {
  const ctx = { ended: 0, callId: 'call-1', line: {} as LiveLine, logger: pino({ level: 'silent' }), recordOptOut: async () => {}, endCall: () => void ctx.ended++, ...over };
  return ctx;
}

describe('the call tools', () => {
  it('are offered as end_call, record_opt_out, voicemail_detected, press_keys, wait_on_hold then keep_listening, each a function with its parameters', () => {
    expect(CALL_TOOLS.offered.map((t) => [t.type, t.name, t.parameters])).to.deep.equal([
      ['function', 'end_call', { type: 'object', properties: { reason: { type: 'string', description: 'Why the call is ending, in a few words.' } }, required: [] }],
      ['function', 'record_opt_out', { type: 'object', properties: {}, required: [] }],
      ['function', 'voicemail_detected', { type: 'object', properties: {}, required: [] }],
      [
        'function',
        'press_keys',
        {
          type: 'object',
          properties: { digits: { type: 'string', description: 'The keys in order: 0-9, * and #, A-D; w for a half-second pause between keys. At most 32.' } },
          required: ['digits'],
        },
      ],
      ['function', 'wait_on_hold', { type: 'object', properties: {}, required: [] }],
      ['function', 'keep_listening', { type: 'object', properties: {}, required: [] }],
    ]);
  });

  it('answer the model without asking it to go on for press_keys, wait_on_hold and keep_listening alone', () => {
    expect(CALL_TOOLS.offered.map((t) => [t.name, CALL_TOOLS.find(t.name)!.quiet === true])).to.deep.equal([
      ['end_call', false],
      ['record_opt_out', false],
      ['voicemail_detected', false],
      ['press_keys', true],
      ['wait_on_hold', true],
      ['keep_listening', true],
    ]);
  });

  it('wait_on_hold puts the agent on hold and answers that it waits; on a line that cannot wait so, it says to stay silent', async () => {
    const tool = CALL_TOOLS.find('wait_on_hold')!;
    let waits = 0;
    expect(await tool.run({}, context({ waitOnHold: () => void waits++ }))).to.deep.equal({ waiting: true });
    expect(waits).to.equal(1);
    expect(await tool.run({}, context())).to.deep.equal({ error: 'This line cannot wait on hold; stay silent until someone speaks.' });
  });

  it('keep_listening does nothing but answer that the agent listens', async () => {
    expect(await CALL_TOOLS.find('keep_listening')!.run({}, context())).to.deep.equal({ listening: true });
  });

  describe('press_keys', () => {
    const tool = CALL_TOOLS.find('press_keys')!;
    const pressing = (outcome: PressOutcome) => {
      const pressed: string[] = [];
      return { pressed, ctx: context({ pressKeys: async (digits) => (pressed.push(digits), outcome) }) };
    };

    it('presses the keys and answers what was sent once they have played', async () => {
      const { pressed, ctx } = pressing('played');
      expect(await tool.run({ digits: '1w2#' }, ctx)).to.deep.equal({ sent: '1w2#' });
      expect(pressed).to.deep.equal(['1w2#']);
    });

    it('takes the keys as a model may write them: spaced out, A-D in lower case, W for a second', async () => {
      const { pressed, ctx } = pressing('played');
      expect(await tool.run({ digits: ' 1 2 3 ' }, ctx)).to.deep.equal({ sent: '123' });
      expect(await tool.run({ digits: 'aW*d' }, ctx)).to.deep.equal({ sent: 'AW*D' });
      expect(await tool.run({ digits: '0'.repeat(32) }, ctx)).to.deep.equal({ sent: '0'.repeat(32) });
      expect(pressed).to.deep.equal(['123', 'AW*D', '0'.repeat(32)]);
    });

    it('refuses what is no key, too many, pauses alone or no digits at all, pressing nothing', async () => {
      const { pressed, ctx } = pressing('played');
      const refusal = { error: 'digits must be 1 to 32 keys of 0-9, *, #, A-D, with w for a half-second pause; nothing was pressed.' };
      for (const digits of ['12x', '1-2', 'E', '0'.repeat(33), 'ww', '', 12, null]) expect(await tool.run({ digits }, ctx), String(digits)).to.deep.equal(refusal);
      expect(await tool.run({}, ctx)).to.deep.equal(refusal);
      expect(pressed).to.deep.equal([]);
    });

    it('says when the keys were cut off by a clear of the line, answers nothing when the line ended, and refuses on a line that cannot press', async () => {
      expect(await tool.run({ digits: '5' }, pressing('cut_off').ctx)).to.deep.equal({
        sent: null,
        note: 'The keys were cut off: the line was cleared when the other side spoke over you. Press them again if they are still wanted.',
      });
      expect(await tool.run({ digits: '5' }, pressing('line_ended').ctx)).to.equal(undefined);
      expect(await tool.run({ digits: '5' }, context())).to.deep.equal({ error: 'This line cannot press keys; nothing was pressed.' });
    });
  });

  it('voicemail_detected records the greeting and answers nothing, so the model says no more; a failed write is logged', async () => {
    const tool = CALL_TOOLS.find('voicemail_detected')!;
    let recorded = 0;
    expect(await tool.run({}, context({ recordVoicemail: async () => void recorded++ }))).to.equal(undefined);
    expect(recorded).to.equal(1);
    expect(await tool.run({}, context({ recordVoicemail: () => Promise.reject(new Error('store down')) }))).to.equal(undefined);
  });

  it('end_call ends the call and answers nothing', async () => {
    const ctx = context();
    expect(await CALL_TOOLS.find('end_call')!.run({ reason: 'done' }, ctx)).to.equal(undefined);
    expect(ctx.ended).to.equal(1);
  });

  it('record_opt_out answers once the opt-out is recorded, and says to pass it on when it could not be', async () => {
    const tool = CALL_TOOLS.find('record_opt_out')!;
    expect(await tool.run({}, context())).to.deep.equal({ recorded: true });
    expect(await tool.run({}, context({ recordOptOut: () => Promise.reject(new Error('store down')) }))).to.deep.equal({ recorded: false, note: 'Say you will pass the request on.' });
  });

  it('finds a tool by name only among those registered', () => {
    const press: Tool = { name: 'press_keys', description: 'Press keys.', parameters: { type: 'object', properties: {} }, run: () => undefined };
    const registry = new ToolRegistry([press]);
    expect(registry.find('press_keys')).to.equal(press);
    expect(registry.find('end_call')).to.equal(undefined);
  });
});
