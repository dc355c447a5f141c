/**
 * Broker URLs whose password holds a character that must be percent-encoded ('/', '?', '#', '@'),
 * unencoded: every route and CLI command that takes a URL is swept with them, and no output may
 * hold a fragment of the password (a CI log keeps stderr, and its secret masking would not match
 * a fragment).
 */
export const SECRET_FRAGMENTS = [
  'Sup3rS3cret',
  'TopSecretTail',
  'Hid3me',
  'Qu3ryPw',
  'At5ecret',
  // digits-only passwords with the host forgotten: they parse as a port (out of range, and in range)
  '98765432123',
  '24680',
  // the in-range one plus 10000: the management API's usual port for that AMQP port
  '34680',
] as const;

export const SECRET_URLS: readonly string[] = [
  'amqp://guest:Sup3rS3cretPw/xyz@127.0.0.1/v',
  'amqp://guest:12345?TopSecretTail@127.0.0.1/',
  'amqp://guest:Hid3me#frag@127.0.0.1:5672/',
  'amqp://guest:pre@At5ecret@127.0.0.1:5672/',
  'amqp://guest:x/Qu3ryPw?y#z@127.0.0.1/',
  // no '@' at all: 'user:password' reads as host:port
  'amqp://guest:Sup3rS3cret/vhost',
  'amqp://guest:12345?TopSecretTail',
  'amqp://guest:98765432123/vhost',
  'amqp://guest:24680/vhost',
];
