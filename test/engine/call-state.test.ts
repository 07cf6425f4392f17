import { expect } from 'chai';
import { IllegalTransition, transition, type EngineEvent } from '../../server/src/engine/call-state.js';
import type { CallStatus } from '../../server/src/generated/types.gen.js';

const at = 1_700_000_000_000;

describe('the call state machine', () => {
  it('moves queued to dialing on the dial attempt, recording it and emitting nothing', () => {
    expect(transition('queued', { type: 'dial_started', at })).to.deep.equal({ patch: { status: 'dialing', dial_attempted_at: at }, event: null });
  });

  it('moves dialing to in_progress on the answer, setting startedAt and who answered, and emitting call.in_progress', () => {
    expect(transition('dialing', { type: 'answered', at, by: 'human' })).to.deep.equal({ patch: { status: 'in_progress', started_at: at, answered_by: 'human' }, event: 'call.in_progress' });
    expect(transition('dialing', { type: 'answered', at }).patch.answered_by, 'a carrier that cannot tell').to.equal('unknown');
  });

  it('dials a throttled call again: the dial is no longer attempted, and nothing is emitted', () => {
    expect(transition('dialing', { type: 'dial_throttled', at })).to.deep.equal({ patch: { status: 'dialing', dial_attempted_at: null }, event: null });
    expect(transition('dialing', { type: 'dial_started', at })).to.deep.equal({ patch: { status: 'dialing', dial_attempted_at: at }, event: null });
  });

  it('completes a conversation with its connected seconds and whole billed minutes', () => {
    expect(transition('in_progress', { type: 'conversation_over', at, connectedMs: 61_500 })).to.deep.equal({
      patch: { status: 'completed', ended_at: at, duration_sec: 61.5, billed_minutes: 2, error: null },
      event: 'call.completed',
    });
  });

  for (const outcome of ['no_answer', 'voicemail', 'declined'] as const) {
    it(`ends an unanswered call as ${outcome} with durationSec 0, nothing billed and no error`, () => {
      expect(transition('dialing', { type: 'ended', at, outcome })).to.deep.equal({
        patch: { status: outcome, ended_at: at, duration_sec: 0, billed_minutes: 0, error: null, ...(outcome === 'voicemail' ? { answered_by: 'machine' } : {}) },
        event: `call.${outcome}`,
      });
    });
  }

  it('says a fax answered when the carrier says so', () => {
    expect(transition('dialing', { type: 'ended', at, outcome: 'voicemail', by: 'fax' }).patch.answered_by).to.equal('fax');
  });

  const failures: [string, CallStatus, EngineEvent, string, number][] = [
    ['a carrier failure', 'dialing', { type: 'ended', at, outcome: 'failed', error: 'carrier_unreachable' }, 'carrier_unreachable', 0],
    ['an interrupted dial', 'dialing', { type: 'interrupted', at }, 'engine_interrupted', 0],
    ['a silent carrier', 'dialing', { type: 'carrier_silent', at }, 'carrier_timeout', 0],
    ['a dropped line', 'in_progress', { type: 'dropped', at, connectedMs: 20_000 }, 'call_dropped', 20],
    ['a dial the carrier kept throttling', 'dialing', { type: 'throttled_out', at }, 'carrier_throttled', 0],
    ['a call whose steps kept failing, before the answer', 'dialing', { type: 'step_failed', at, connectedMs: 0 }, 'engine_error', 0],
    ['a call whose steps kept failing, while live', 'in_progress', { type: 'step_failed', at, connectedMs: 30_000 }, 'engine_error', 30],
  ];
  for (const [what, from, e, token, seconds] of failures) {
    it(`fails ${what} with error ${token}`, () => {
      const t = transition(from, e);
      expect(t.event).to.equal('call.failed');
      expect(t.patch).to.deep.equal({ status: 'failed', ended_at: at, duration_sec: seconds, billed_minutes: seconds > 0 ? 1 : 0, error: token });
    });
  }

  const illegal: [CallStatus, EngineEvent][] = [
    ['queued', { type: 'answered', at }],
    ['dialing', { type: 'conversation_over', at, connectedMs: 1 }],
    ['in_progress', { type: 'dial_started', at }],
    ['in_progress', { type: 'ended', at, outcome: 'no_answer' }],
    ['completed', { type: 'dropped', at, connectedMs: 1 }],
    ['failed', { type: 'answered', at }],
    ['no_answer', { type: 'carrier_silent', at }],
  ];
  for (const [from, e] of illegal) {
    it(`refuses ${e.type} from ${from}`, () => {
      expect(() => transition(from, e)).to.throw(IllegalTransition, `illegal move: ${e.type} from ${from}`);
    });
  }
});
