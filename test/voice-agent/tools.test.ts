// The call's tools: offered to the model as function definitions in the registry's order, each run with what the
// call gives it.
import { expect } from 'chai';
import { pino } from 'pino';
import type { LiveLine } from '../../server/src/telephony/live-line.js';
import { CALL_TOOLS, ToolRegistry, type Tool, type ToolContext } from '../../server/src/voice-agent/tools.js';

function context(over: Partial<ToolContext> = {}): ToolContext & { ended: number } {
  const ctx = { ended: 0, callId: 'call-1', line: {} as LiveLine, logger: pino({ level: 'silent' }), recordOptOut: async () => {}, endCall: () => void ctx.ended++, ...over };
  return ctx;
}

describe('the call tools', () => {
  it('are offered as end_call, record_opt_out then voicemail_detected, each a function with its parameters', () => {
    expect(CALL_TOOLS.offered.map((t) => [t.type, t.name, t.parameters])).to.deep.equal([
      ['function', 'end_call', { type: 'object', properties: { reason: { type: 'string', description: 'Why the call is ending, in a few words.' } }, required: [] }],
      ['function', 'record_opt_out', { type: 'object', properties: {}, required: [] }],
      ['function', 'voicemail_detected', { type: 'object', properties: {}, required: [] }],
    ]);
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
