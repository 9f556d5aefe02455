import { describe, expect, it } from "vitest";
import {
  checkWebhookUrl,
  dnsOverHttpsResolver,
  isPrivateAddress,
  type Resolver,
} from "../../lib/webhook-url";

/** checkWebhookUrl: which webhook URLs are refused (lib/webhook-url.ts). */

describe("checkWebhookUrl", () => {
  const production = (resolve?: Resolver) => ({ environment: "production", resolve });
  const never: Resolver = () => {
    throw new Error("must not resolve");
  };

  it.each([
    ["http://hooks.example.com/in", "https"],
    ["https://10.0.0.8/in", "private"],
    ["https://172.16.5.4/in", "private"],
    ["https://172.31.255.255/in", "private"],
    ["https://192.168.1.1/in", "private"],
    ["https://127.0.0.1/in", "private"],
    ["https://127.8.9.10/in", "private"],
    ["https://169.254.169.254/latest/meta-data", "private"],
    ["https://100.64.0.1/in", "private"],
    ["https://100.127.255.254/in", "private"],
    ["https://0.0.0.0/in", "private"],
    ["https://2130706433/in", "private"],
    ["https://0x7f.0.0.1/in", "private"],
    ["https://[::1]/in", "private"],
    ["https://[::]/in", "private"],
    ["https://[fe80::1]/in", "private"],
    ["https://[febf:ffff::1]/in", "private"],
    ["https://[fc00::1]/in", "private"],
    ["https://[fd12:3456::1]/in", "private"],
    ["https://[::ffff:127.0.0.1]/in", "private"],
    ["https://[::ffff:10.0.0.1]/in", "private"],
    ["https://[64:ff9b::a9fe:a9fe]/in", "private"],
    ["https://localhost/in", "local or internal"],
    ["https://LOCALHOST./in", "local or internal"],
    ["https://api.localhost/in", "local or internal"],
    ["https://metadata.google.internal/computeMetadata/v1/", "local or internal"],
    ["https://db.internal/in", "local or internal"],
    ["https://printer.local/in", "local or internal"],
    ["https://intranet/in", "fully qualified"],
    ["https://user:pw@hooks.example.com/in", "user name"],
    ["gopher://hooks.example.com/in", "https"],
  ])("refuses %s in production (%s)", async (url, reason) => {
    const verdict = await checkWebhookUrl(url, production(never));
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? "" : verdict.reason).toContain(reason);
  });

  it("accepts public IP literals without resolving them", async () => {
    for (const url of [
      "https://93.184.216.34/in",
      "https://172.32.0.1/in",
      "https://100.128.0.1/in",
      "https://[2606:4700:4700::1111]/in",
    ]) {
      expect(await checkWebhookUrl(url, production(never)), url).toEqual({ ok: true });
    }
  });

  it("resolves host names and refuses any private answer", async () => {
    const answers: Record<string, string[]> = {
      "hooks.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
      "rebind.example.com": ["93.184.216.34", "10.0.0.1"],
      "v6.example.com": ["fd00::5"],
      "meta.example.com": ["169.254.169.254"],
      "empty.example.com": [],
    };
    const asked: string[] = [];
    const resolve: Resolver = async (name) => {
      asked.push(name);
      return answers[name] ?? [];
    };
    expect(await checkWebhookUrl("https://Hooks.Example.com:8443/in?x=1", production(resolve))).toEqual({
      ok: true,
    });
    expect(asked).toEqual(["hooks.example.com"]);
    for (const name of ["rebind", "v6", "meta"]) {
      const verdict = await checkWebhookUrl(`https://${name}.example.com/in`, production(resolve));
      expect(verdict, name).toEqual({ ok: false, reason: expect.stringContaining("resolves to a private") });
    }
    expect(await checkWebhookUrl("https://empty.example.com/in", production(resolve))).toEqual({
      ok: false,
      reason: expect.stringContaining("does not resolve"),
    });
    const failing: Resolver = () => Promise.reject(new Error("network down"));
    expect(await checkWebhookUrl("https://hooks.example.com/in", production(failing))).toEqual({
      ok: false,
      reason: expect.stringContaining("could not be resolved"),
    });
  });

  it("is strict when the environment is unset; relaxed only in local mode", async () => {
    expect((await checkWebhookUrl("http://hooks.example.com/in", { environment: undefined })).ok).toBe(false);
    expect(await checkWebhookUrl("http://127.0.0.1:9000/in", { environment: "local" })).toEqual({ ok: true });
    expect(await checkWebhookUrl("http://metadata.google.internal/", { environment: "local" })).toEqual({
      ok: true,
    });
    expect((await checkWebhookUrl("ftp://127.0.0.1/", { environment: "local" })).ok).toBe(false);
    expect((await checkWebhookUrl("http://u:p@127.0.0.1/", { environment: "local" })).ok).toBe(false);
  });

  it("queries DNS over HTTPS for A and AAAA and keeps only address answers", async () => {
    const requests: { url: string; accept: string | null }[] = [];
    const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      requests.push({ url, accept: new Headers(init?.headers).get("accept") });
      const aaaa = url.endsWith("type=AAAA");
      const answer = aaaa
        ? [{ name: "hooks.example.com", type: 28, data: "2606:2800:220:1::1" }]
        : [
            { name: "hooks.example.com", type: 5, data: "edge.example.net." },
            { name: "edge.example.net", type: 1, data: "93.184.216.34" },
          ];
      return Response.json({ Status: 0, Answer: answer });
    }) as typeof fetch;
    const resolve = dnsOverHttpsResolver(fakeFetch);
    expect(await resolve("hooks.example.com")).toEqual(["93.184.216.34", "2606:2800:220:1::1"]);
    expect(requests.map((r) => r.url).sort()).toEqual([
      "https://cloudflare-dns.com/dns-query?name=hooks.example.com&type=A",
      "https://cloudflare-dns.com/dns-query?name=hooks.example.com&type=AAAA",
    ]);
    expect(requests.every((r) => r.accept === "application/dns-json")).toBe(true);

    const nxdomain = dnsOverHttpsResolver((async () => Response.json({ Status: 3 })) as typeof fetch);
    expect(await nxdomain("gone.example.com")).toEqual([]);
    const servfail = dnsOverHttpsResolver((async () => Response.json({ Status: 2 })) as typeof fetch);
    await expect(servfail("broken.example.com")).rejects.toThrow();
    const down = dnsOverHttpsResolver((async () => new Response("", { status: 502 })) as typeof fetch);
    await expect(down("hooks.example.com")).rejects.toThrow();
  });

  /** Address → refused? One row per registry entry (and its edges), refused and allowed alike. */
  const addresses: readonly (readonly [string, boolean])[] = [
    // IPv4 special-purpose registry, plus multicast.
    ["0.0.0.0", true],
    ["0.255.255.255", true],
    ["10.0.0.1", true],
    ["100.64.0.1", true],
    ["100.127.255.255", true],
    ["127.0.0.1", true],
    ["169.254.169.254", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["192.0.0.1", true],
    ["192.0.0.9", true],
    ["192.0.0.170", true],
    ["192.0.2.1", true],
    ["192.0.2.255", true],
    ["192.88.99.1", true],
    ["192.168.0.1", true],
    ["198.18.0.1", true],
    ["198.19.255.255", true],
    ["198.51.100.7", true],
    ["203.0.113.9", true],
    ["224.0.0.1", true],
    ["239.255.255.255", true],
    ["240.0.0.1", true],
    ["255.255.255.255", true],
    // IPv4 neighbours of those ranges, and public addresses.
    ["8.8.8.8", false],
    ["1.1.1.1", false],
    ["9.255.255.255", false],
    ["11.0.0.0", false],
    ["100.63.255.255", false],
    ["100.128.0.0", false],
    ["126.255.255.255", false],
    ["128.0.0.0", false],
    ["169.253.255.255", false],
    ["172.15.255.255", false],
    ["172.32.0.0", false],
    ["192.0.1.1", false],
    ["192.0.3.1", false],
    ["192.31.196.1", false],
    ["192.88.98.1", false],
    ["192.167.255.255", false],
    ["198.17.255.255", false],
    ["198.20.0.0", false],
    ["198.51.99.1", false],
    ["198.51.101.1", false],
    ["203.0.112.1", false],
    ["203.0.114.1", false],
    ["223.255.255.255", false],
    // IPv6 special-purpose registry.
    ["::", true],
    ["::1", true],
    ["::7f00:1", true],
    ["::8.8.8.8", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:8.8.8.8", true],
    ["::ffff:0:7f00:1", true],
    ["::ffff:0:808:808", true],
    ["64:ff9b::7f00:1", true],
    ["64:ff9b::a9fe:a9fe", true],
    ["64:ff9b::c000:201", true],
    ["64:ff9b::808:808", false],
    ["64:ff9b:1::808:808", true],
    ["100::", true],
    ["100::ffff:ffff:ffff:ffff", true],
    ["100:0:0:1::1", true],
    ["2001::1", true],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", true],
    ["2001:1::1", true],
    ["2001:2::1", true],
    ["2001:10::1", true],
    ["2001:1ff:ffff::1", true],
    ["2001:db8::1", true],
    ["2001:db8:ffff:ffff::1", true],
    ["2002:7f00:1::1", true],
    ["2002:c0a8:101::1", true],
    ["2002:c000:0201::1", true],
    ["2002:808:808::1", false],
    ["3fff::1", true],
    ["5f00::1", true],
    ["fc00::1", true],
    ["fd12:3456::1", true],
    ["fe80::1", true],
    ["fe80::1%eth0", true],
    ["febf:ffff::1", true],
    ["fec0::1", true],
    ["ff02::1", true],
    ["ff0e::1", true],
    ["4000::1", true],
    // IPv6 public unicast, including neighbours of the refused blocks.
    ["2001:4860:4860::8888", false],
    ["2606:4700:4700::1111", false],
    ["2001:200::1", false],
    ["2001:db7:ffff::1", false],
    ["2001:db9::1", false],
    ["2003::1", false],
    ["2a00:1450:4001::1", false],
    ["3ffe:ffff::1", false],
    ["[2606:4700:4700::1111]", false],
    // Not an address.
    ["not-an-address", true],
    ["1.2.3", true],
    ["1:2:3:4:5:6:7:8:9", true],
  ];

  it.each(addresses)("classifies %s (refused: %s)", (address, refused) => {
    expect(isPrivateAddress(address)).toBe(refused);
  });

  it.each([
    "https://[::ffff:0:7f00:1]/in",
    "https://[::ffff:127.0.0.1]/in",
    "https://[::ffff:8.8.8.8]/in",
    "https://192.0.2.1/in",
    "https://198.51.100.1/in",
    "https://203.0.113.1/in",
    "https://[2001:db8::1]/in",
    "https://[100::1]/in",
    "https://255.255.255.255/in",
    "https://[64:ff9b:1::a00:1]/in",
  ])("refuses the reserved literal %s", async (url) => {
    const verdict = await checkWebhookUrl(url, production(never));
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining("private") });
  });

  it("refuses a name resolving to a documentation or mapped address", async () => {
    for (const answer of ["192.0.2.10", "2001:db8::10", "::ffff:0:a00:1", "100::1"]) {
      const verdict = await checkWebhookUrl(
        "https://hooks.example.com/in",
        production(async () => [answer]),
      );
      expect(verdict.ok, answer).toBe(false);
    }
  });
});
