// DO NOT EDIT. Generated from openapi.yaml by `npm run codegen`.

export type { Auth } from '../core/auth.gen.js';
export type { QuerySerializerOptions } from '../core/bodySerializer.gen.js';
export {
  formDataBodySerializer,
  jsonBodySerializer,
  urlSearchParamsBodySerializer,
} from '../core/bodySerializer.gen.js';
export { buildClientParams } from '../core/params.gen.js';
export { serializeQueryKeyValue } from '../core/queryKeySerializer.gen.js';
export { createClient } from './client.gen.js';
export type {
  Client,
  ClientOptions,
  Config,
  CreateClientConfig,
  Options,
  RequestOptions,
  RequestResult,
  ResolvedRequestOptions,
  ResponseStyle,
  TDataShape,
} from './types.gen.js';
export { createConfig, mergeHeaders } from './utils.gen.js';
