// The public surface of @svc/sdk.
export { SvcClient, DEFAULT_BASE_URL } from './svc-client.js';
export type { SvcClientOptions, RequestOptions, PlaceCallOptions, RecordingOptions, Recording } from './svc-client.js';
export { SvcApiError, SvcNetworkError, SvcTimeoutError } from './errors.js';
export type { RateLimitInfo } from './errors.js';
export type { RetryOptions, Sleep } from './retry-policy.js';
export { TERMINAL_STATUSES, isTerminal } from './wait-for-call.js';
export type { WaitForCallOptions } from './wait-for-call.js';
export type { LiveEvent, StreamOptions } from './live-stream.js';
export { verifyWebhook, verifyToolRequest, WebhookVerificationError, SIGNATURE_HEADER, DEFAULT_TOLERANCE_SEC } from './verify-webhook.js';
export type { WebhookVerificationReason, VerifyWebhookOptions } from './verify-webhook.js';
export type {
  AnsweredBy,
  BatchEvent,
  BatchEventLog,
  BatchEventLogEntry,
  BatchEventName,
  BatchRow,
  BatchRowList,
  BatchRowState,
  CallCompletedEvent,
  CallDeclinedEvent,
  CallEventLog,
  CallEventLogEntry,
  DeliveryState,
  StreamStatus,
  StreamTurn,
  StreamToolCall,
  WebhookAttempt,
  CallEvent,
  CallEventName,
  CallFailedEvent,
  CallInProgressEvent,
  CallList,
  CallMetadata,
  CallNoAnswerEvent,
  CallRecord,
  CallStatus,
  CallSummary,
  CallTool,
  ClientTool,
  CallVoicemailEvent,
  DoNotCallEntry,
  DoNotCallList,
  DoNotCallRequest,
  ErrorToken,
  ExtractedValues,
  FieldDefinition,
  LanguageSource,
  NumberType,
  PlaceCallRequest,
  PlaceCallResponse,
  PreflightResponse,
  RequestProblem,
  ToolCall,
  ToolRequest,
} from './generated/types.gen.js';
