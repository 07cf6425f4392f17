// The webhookUrl table shared by the unit test of checkWebhookUrl and the HTTP guardrail suite.

const HINT = 'For local development, start the service with SVC_WEBHOOK_ALLOW_PRIVATE=1 to allow http and loopback or private hosts.';
const PUBLIC_ADDRESS = `webhookUrl must point at a public address. ${HINT}`;
const LOCALHOST = `webhookUrl must not point at localhost. ${HINT}`;

/** URL, why, and the exact message checkWebhookUrl gives. */
export const REJECTED_WEBHOOK_URLS: [string, string, string][] = [
  ['https://127.0.0.1/h', 'a loopback address', PUBLIC_ADDRESS],
  ['https://127.1/h', 'a short-form loopback address', PUBLIC_ADDRESS],
  ['https://0x7f000001/h', 'a hexadecimal loopback address', PUBLIC_ADDRESS],
  ['https://10.0.0.1/h', 'a 10/8 private address', PUBLIC_ADDRESS],
  ['https://192.168.1.1/h', 'a 192.168/16 private address', PUBLIC_ADDRESS],
  ['https://172.16.0.1/h', 'a 172.16/12 private address', PUBLIC_ADDRESS],
  ['https://169.254.169.254/latest', 'the cloud metadata address', PUBLIC_ADDRESS],
  ['https://0.0.0.0/h', 'the unspecified address', PUBLIC_ADDRESS],
  ['https://[::1]/h', 'the IPv6 loopback address', PUBLIC_ADDRESS],
  ['https://[fe80::1]/h', 'an IPv6 link-local address', PUBLIC_ADDRESS],
  ['https://[::ffff:127.0.0.1]/h', 'an IPv4-mapped loopback address', PUBLIC_ADDRESS],
  ['https://[64:ff9b::a9fe:a9fe]/h', 'the metadata address through NAT64', PUBLIC_ADDRESS],
  ['https://localhost/h', 'localhost', LOCALHOST],
  ['https://LOCALHOST./h', 'localhost in capitals with a trailing dot', LOCALHOST],
  ['https://foo.localhost/h', 'a name under localhost', LOCALHOST],
  ['https://intranet/h', 'a single-label name', `webhookUrl must use a fully qualified public host name. ${HINT}`],
  ['https://user:pw@example.com/hook', 'credentials', 'webhookUrl must not contain credentials.'],
  ['https://token@example.com/hook', 'a user name alone', 'webhookUrl must not contain credentials.'],
  ['http://example.com/hook', 'http', `webhookUrl must use https. ${HINT}`],
  ['ftp://example.com/hook', 'ftp', 'webhookUrl must use https.'],
  ['not a url', 'text that is not a URL', 'webhookUrl is not an absolute URL.'],
  ['/hook', 'a relative URL', 'webhookUrl is not an absolute URL.'],
];

export const ACCEPTED_WEBHOOK_URLS: [string, string][] = [
  ['https://example.com/hook', 'a public host name'],
  ['https://93.184.216.34/hook', 'a public IPv4 address'],
  ['https://[2606:4700:4700::1111]/hook', 'a public IPv6 address'],
  ['https://hooks.example.com:8443/svc?tenant=1', 'a name with a port and a query'],
];
