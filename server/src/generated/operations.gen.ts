// DO NOT EDIT. Generated from openapi.yaml by `npm run codegen`.

export const operations = [
  { operationId: 'listCalls', method: 'GET', path: '/v1/agent/calls' },
  { operationId: 'placeCall', method: 'POST', path: '/v1/agent/calls' },
  { operationId: 'preflightCall', method: 'POST', path: '/v1/agent/calls/preflight' },
  { operationId: 'listBatches', method: 'GET', path: '/v1/agent/batches' },
  { operationId: 'createBatch', method: 'POST', path: '/v1/agent/batches' },
  { operationId: 'preflightBatch', method: 'POST', path: '/v1/agent/batches/preflight' },
  { operationId: 'getBatch', method: 'GET', path: '/v1/agent/batches/{id}' },
  { operationId: 'cancelBatch', method: 'POST', path: '/v1/agent/batches/{id}/cancel' },
  { operationId: 'listBatchRows', method: 'GET', path: '/v1/agent/batches/{id}/rows' },
  { operationId: 'getStats', method: 'GET', path: '/v1/agent/stats' },
  { operationId: 'getSettings', method: 'GET', path: '/v1/agent/settings' },
  { operationId: 'listDoNotCall', method: 'GET', path: '/v1/agent/do-not-call' },
  { operationId: 'addDoNotCall', method: 'POST', path: '/v1/agent/do-not-call' },
  { operationId: 'removeDoNotCall', method: 'DELETE', path: '/v1/agent/do-not-call/{number}' },
  { operationId: 'getCall', method: 'GET', path: '/v1/agent/calls/{id}' },
  { operationId: 'cancelCall', method: 'POST', path: '/v1/agent/calls/{id}/cancel' },
  { operationId: 'getCallRecording', method: 'GET', path: '/v1/agent/calls/{id}/recording' },
  { operationId: 'listCallEvents', method: 'GET', path: '/v1/agent/calls/{id}/events' },
  { operationId: 'redeliverEvent', method: 'POST', path: '/v1/agent/calls/{id}/events/{eventId}/redeliver' },
  { operationId: 'listBatchEvents', method: 'GET', path: '/v1/agent/batches/{id}/events' },
  { operationId: 'redeliverBatchEvent', method: 'POST', path: '/v1/agent/batches/{id}/events/{eventId}/redeliver' },
  { operationId: 'streamCall', method: 'GET', path: '/v1/agent/calls/{id}/stream' },
  { operationId: 'streamEvents', method: 'GET', path: '/v1/agent/stream' },
] as const;

export type OperationId = (typeof operations)[number]['operationId'];
