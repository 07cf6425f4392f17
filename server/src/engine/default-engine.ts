// The engine as configured: the sandbox carrier, the scripted agent with its simulated callee, the rule-based
// analyst — all offline, the defaults `npm start` runs with. The agent is built here once (configuredAgent) and
// main.ts gives the same one to the telephony, whose media streams it joins when it is live.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import type { Agent, AnyAgent } from '../conversation/agent.js';
import { configuredRealtimeAgent } from '../voice-agent/realtime-agent.js';
import { configuredCascadedAgent } from '../voice-agent/cascaded/configured-cascaded.js';
import type { LatencyObserver } from '../voice-agent/turn-timing.js';
import { ClientTools } from '../voice-agent/client-tools.js';
import { LONG_CALL_TALK_MS, ScriptedAgent } from '../voice-agent/scripted-agent.js';
import type { Analyst } from '../analysis/analyst.js';
import { LlmAnalyst } from '../analysis/llm-analyst.js';
import { RuleBasedAnalyst } from '../analysis/rule-based-analyst.js';
import { CallEngine, type EngineSettings } from './call-engine.js';
import type { CallHooks } from './step-context.js';
import type { Carrier } from '../telephony/carrier.js';
import { sandboxScenario } from '../numbers/sandbox-numbers.js';
import { configuredTelephony } from '../telephony/configured-telephony.js';

export function defaultEngineParts(config: Config, store: Store) {
  return { agent: configuredAgent(config, store), analyst: configuredAnalyst(config) };
}

/** SVC_ANALYST: the rule-based analyst, or the LLM analyst on an OpenAI-compatible endpoint. */
function configuredAnalyst(config: Config): Analyst {
  if (config.analyst !== 'openai') return new RuleBasedAnalyst();
  return new LlmAnalyst({ baseUrl: config.llmBaseUrl, apiKey: config.llmApiKey!, model: config.llmModel, timeoutMs: config.llmTimeoutMs });
}

/** SVC_AGENT: the scripted agent, the realtime speech agent or the cascaded agent (the live ones read what their lines recorded). */
export function configuredAgent(config: Config, store: Store, logger?: Logger, observer?: LatencyObserver): AnyAgent {
  if (config.agent === 'cascaded') return configuredCascadedAgent(config, store.db, logger?.child({ part: 'cascaded' }), observer);
  if (config.agent !== 'realtime') return sandboxAgent(new ClientTools(store.db, { allowPrivate: config.webhookAllowPrivate }), logger?.child({ part: 'scripted' }));
  return configuredRealtimeAgent(config, store.db, logger, observer);
}

/**
 * The scripted agent; on the sandbox's long-call number the simulated callee talks for fifteen minutes, and on its
 * question number the agent asks the call's first client tool.
 */
function sandboxAgent(clientTools: ClientTools, logger: Logger | undefined): Agent {
  const normal = new ScriptedAgent({ clientTools, logger });
  const talkative = new ScriptedAgent({ minTalkMs: LONG_CALL_TALK_MS });
  return { name: normal.name, converse: (brief) => (brief.to && sandboxScenario(brief.to) === 'long' ? talkative : normal).converse(brief) };
}

/**
 * The engine as configured; the carrier and agent are built here unless given (main.ts shares its own). The hooks
 * are the caller's: what the rest of the service does as calls end (batches/batch-hooks.ts).
 */
export function createEngine(config: Config, store: Store, clock: Clock, logger: Logger, hooks: CallHooks, parts: { carrier?: Carrier; agent?: AnyAgent } = {}): CallEngine {
  return new CallEngine({
    store,
    clock,
    logger,
    carrier: parts.carrier ?? configuredTelephony({ config, store, clock, logger }).carrier,
    agent: parts.agent ?? configuredAgent(config, store),
    analyst: configuredAnalyst(config),
    settings: engineSettings(config),
    hooks,
  });
}

export function engineSettings(config: Config): EngineSettings {
  return {
    maxCallDurationSec: config.maxCallDurationSec,
    leaseMs: config.engineLeaseMs,
    watchdogSec: config.engineWatchdogSec,
    concurrency: config.engineConcurrency,
    idlePollMs: config.enginePollMs,
  };
}
