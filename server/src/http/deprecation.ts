// Deprecation headers for operations marked `x-deprecation: { at, sunset, successor? }` in openapi.yaml:
// Deprecation (RFC 9745), Sunset (RFC 8594) and Link (RFC 8288). Unmarked operations carry none of them.
// The marks are checked at start-up: a sunset less than 90 days after the deprecation date refuses to start.
import type { Operation } from '../contract/openapi-document.js';

const MIN_NOTICE_MS = 90 * 24 * 3600 * 1000;

/** The headers for a request to the operation, given its path parameters; undefined when not deprecated. */
export type DeprecationHeaders = (params: Record<string, string>) => Record<string, string>;

export function deprecationHeaders(op: Operation, policyUrl: string, publicBaseUrl: string): DeprecationHeaders | undefined {
  const mark = op['x-deprecation'];
  if (!mark) return undefined;
  const at = Date.parse(mark.at);
  const sunset = Date.parse(mark.sunset);
  if (Number.isNaN(at) || Number.isNaN(sunset)) {
    throw new Error(`${op.operationId}: x-deprecation needs ISO dates for at and sunset`);
  }
  if (sunset - at < MIN_NOTICE_MS) {
    throw new Error(`${op.operationId}: sunset ${mark.sunset} must be at least 90 days after deprecation ${mark.at}`);
  }
  const fixed = { Deprecation: `@${Math.floor(at / 1000)}`, Sunset: new Date(sunset).toUTCString() };
  const deprecationLink = `<${policyUrl}>; rel="deprecation"; type="text/html"`;
  const successor = mark.successor;
  return (params) => {
    if (!successor) return { ...fixed, Link: deprecationLink };
    // The successor names the same resource: its path parameters are filled in from this request.
    const path = successor.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    return { ...fixed, Link: `${deprecationLink}, <${publicBaseUrl}${path}>; rel="successor-version"` };
  };
}
