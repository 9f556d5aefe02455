import { describe, expect, it } from "vitest";
import { isWorkerdNetworkNoise } from "../../scripts/workerd-noise";

/** What `npm start` drops from workerd's stderr: the runtime's own reports of failed outbound connections. */
describe("isWorkerdNetworkNoise", () => {
  const bin = "/repo/node_modules/@cloudflare/workerd-linux-64/bin/workerd";
  it.each([
    `stack: ${bin}@51f50be ${bin}@51f5bb0 ${bin}@379a4a0`,
    "e = kj/async-io-unix.c++:1298: failed: DNS lookup failed.; params.host = nowhere.invalid; params.service = ; gai_strerror(status) = Name or service not known",
    "exception = kj/async-io-unix.c++:1538: disconnected: connect(): Connection refused",
    "uncaught exception; source = Uncaught (in promise); stack = Error: internal error; reference = g5rajaiui3d5lrkaj5akpkml",
    "uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.",
    "uncaught exception; exception = workerd/jsg/_virtual_includes/iterator/workerd/jsg/value.h:1480: disconnected: jsg.Error: Network connection lost.",
  ])("drops %s", (line) => {
    expect(isWorkerdNetworkNoise(line)).toBe(true);
  });

  it.each([
    "[wrangler:info] Ready on http://127.0.0.1:8787",
    "uncaught exception; source = Uncaught (in promise); stack = TypeError: Cannot read properties of undefined",
    "    at drain (functions/cron.ts:10:7)",
    '{"webhook_drain":{"claimed":1}}',
  ])("keeps %s", (line) => {
    expect(isWorkerdNetworkNoise(line)).toBe(false);
  });
});
