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

  it("classifies addresses", () => {
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("2001:4860:4860::8888")).toBe(false);
    expect(isPrivateAddress("192.168.0.1")).toBe(true);
    expect(isPrivateAddress("2002:c0a8:0101::1")).toBe(true);
    expect(isPrivateAddress("ff02::1")).toBe(true);
    expect(isPrivateAddress("224.0.0.1")).toBe(true);
    expect(isPrivateAddress("not-an-address")).toBe(true);
  });
});
