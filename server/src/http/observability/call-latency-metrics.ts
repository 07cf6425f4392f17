// The live agent's latency histograms: observed by this process as the lines it holds measure them
// (voice-agent/turn-timing.ts), so each process reports the calls whose media it carries, as Prometheus
// histograms are meant to be summed across a deployment's processes. One registry a process, however many apps or
// agents it builds; the service's /metrics merges it in (service-metrics.ts).
import { Histogram, Registry } from 'prom-client';
import type { LatencyObserver, TurnStages } from '../../voice-agent/turn-timing.js';

export class CallLatencyMetrics implements LatencyObserver {
  readonly registry = new Registry();
  private readonly firstAudioSeconds = new Histogram({
    name: 'svc_call_first_audio_seconds',
    help: "From a live call's answer (its media stream's start) to the agent's first audio sent to the line.",
    buckets: [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
    registers: [this.registry],
  });
  private readonly turnResponseSeconds = new Histogram({
    name: 'svc_call_turn_response_seconds',
    help: "From the callee's end of speech (the model's speech_stopped) to the agent's first audio of its answer sent to the line.",
    buckets: [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
    registers: [this.registry],
  });
  private readonly bargeInClearSeconds = new Histogram({
    name: 'svc_call_barge_in_clear_seconds',
    help: "From the callee's start of speech over the agent (the model's speech_started audio_start_ms) to the agent's audio cleared from the line.",
    buckets: [0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 2],
    registers: [this.registry],
  });

  private readonly turnStageSeconds = new Histogram({
    name: 'svc_call_turn_stage_seconds',
    help: "A cascaded agent's answer, stage by stage (label stage): endpoint (end of speech to the turn decided), own (svc's time to the model's request), model (to its first sentence), voice (to its first audio on the line).",
    labelNames: ['stage'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers: [this.registry],
  });

  firstAudio(ms: number): void {
    this.firstAudioSeconds.observe(ms / 1000);
  }

  turnResponse(ms: number): void {
    this.turnResponseSeconds.observe(ms / 1000);
  }

  bargeInClear(ms: number): void {
    this.bargeInClearSeconds.observe(ms / 1000);
  }

  turnStages(stages: TurnStages): void {
    this.turnStageSeconds.observe({ stage: 'endpoint' }, stages.endpointMs / 1000);
    this.turnStageSeconds.observe({ stage: 'own' }, stages.ownMs / 1000);
    this.turnStageSeconds.observe({ stage: 'model' }, stages.modelMs / 1000);
    this.turnStageSeconds.observe({ stage: 'voice' }, stages.voiceMs / 1000);
  }
}

/** This process's. */
export const callLatencyMetrics = new CallLatencyMetrics();
