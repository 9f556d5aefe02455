/**
 * workerd reports every failed outbound connection (a webhook endpoint that does not resolve, refuses or resets)
 * on its own stderr: the KJ exception, a native stack of addresses, and an "uncaught exception" echo, although
 * the Worker caught the error and recorded it on the delivery in words (`last_error`). These lines say nothing a
 * developer can act on, and a down endpoint repeats them every tick, so the local stack drops them. Exceptions of
 * the Worker's own code carry JavaScript stacks and pass through.
 */
const NETWORK_FAILURE =
  /DNS lookup failed|Connection refused|Network connection lost|internal error; reference = |Connection reset|connect\(\)/;

export function isWorkerdNetworkNoise(line: string): boolean {
  const text = line.trim();
  if (/^stack:( \S+workerd@[0-9a-f]+)+$/.test(text)) return true;
  if (/^(e|exception) = (kj\/|workerd\/)/.test(text)) return NETWORK_FAILURE.test(text);
  if (text.startsWith("uncaught exception; ")) return NETWORK_FAILURE.test(text);
  return false;
}
