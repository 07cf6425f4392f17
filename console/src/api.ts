// The console's one client: the API's own SDK, with the key pasted at sign-in, kept in this tab's session storage
// only (a sign-out clears it). Every request goes to the service that served the page.
import { SvcClient } from '../../sdk/src/svc-client.js';
import { SvcApiError, SvcNetworkError } from '../../sdk/src/errors.js';

const KEY = 'svc.apiKey';

export const storedKey = (): string | null => sessionStorage.getItem(KEY);
export const signIn = (key: string) => sessionStorage.setItem(KEY, key.trim());
export const signOut = () => sessionStorage.removeItem(KEY);

let client: { key: string; svc: SvcClient } | null = null;
export function svc(): SvcClient {
  const key = storedKey();
  if (!key) throw new Error('not signed in');
  if (client?.key !== key) client = { key, svc: new SvcClient({ apiKey: key, baseUrl: location.origin }) };
  return client.svc;
}

/** An error as the console shows it: the API's token and message. */
export function describe(error: unknown): { token: string; message: string } {
  if (error instanceof SvcApiError) return { token: error.token, message: error.message };
  if (error instanceof SvcNetworkError) return { token: 'service_unreachable', message: error.message };
  if (typeof error === 'object' && error !== null && 'token' in error && 'message' in error) return { token: String(error.token), message: String(error.message) };
  return { token: 'error', message: error instanceof Error ? error.message : String(error) };
}

export const isUnauthorized = (error: unknown) => error instanceof SvcApiError && error.status === 401;
