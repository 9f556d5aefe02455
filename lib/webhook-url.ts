/**
 * Webhook URL safety: an endpoint must not make the platform call into private networks (SSRF). Checked when an
 * endpoint is created or its URL changes, and again by the cron Worker before each send, because what a name
 * resolves to can change after it was accepted.
 */

export type UrlVerdict = { ok: true } | { ok: false; reason: string };

/** Resolves a hostname to its IPv4 and IPv6 addresses (A and AAAA answers). */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface UrlCheckOptions {
  /** `env.ENVIRONMENT`. Only `local` relaxes the rules (http, private hosts), so an unset value is strict. */
  environment: string | undefined;
  /** Injected by tests; DNS over HTTPS by default. */
  resolve?: Resolver;
}

const MAX_URL_LENGTH = 2048;

/** Names that only mean something inside a network or on the host itself. */
const BLOCKED_SUFFIXES = [".localhost", ".internal", ".local", ".home.arpa"];
const BLOCKED_NAMES = ["localhost", "metadata.google.internal"];

/** [network, prefix length] of IPv4 ranges that are not public unicast. */
const BLOCKED_V4: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function parseV4(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

function v4Blocked(bytes: readonly number[]): boolean {
  const value = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  return BLOCKED_V4.some(([network, bits]) => {
    const base = parseV4(network)!;
    const baseValue = ((base[0]! << 24) | (base[1]! << 16) | (base[2]! << 8) | base[3]!) >>> 0;
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (value & mask) >>> 0 === (baseValue & mask) >>> 0;
  });
}

/** The 16 bytes of an IPv6 address (`::` compression and a trailing dotted IPv4 allowed), or null. */
function parseV6(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = v4;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  const bytes: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    const n = Number.parseInt(group, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function v6Blocked(b: readonly number[]): boolean {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 15) && (b[15] === 0 || b[15] === 1)) return true; // :: and ::1
  if ((b[0]! & 0xfe) === 0xfc) return true; // fc00::/7 unique-local
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return true; // fe80::/10 link-local
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return true; // fec0::/10 site-local (deprecated)
  if (b[0] === 0xff) return true; // multicast
  // Addresses that carry an IPv4 address are judged by it: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d),
  // NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4Blocked(b.slice(12));
  if (zeros(0, 12)) return v4Blocked(b.slice(12));
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12))
    return v4Blocked(b.slice(12));
  if (b[0] === 0x20 && b[1] === 0x02) return v4Blocked(b.slice(2, 6));
  return false;
}

/** Whether an IP address (v4 dotted, or v6) is private, loopback, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const v4 = parseV4(address);
  if (v4) return v4Blocked(v4);
  const v6 = parseV6(address.replace(/^\[|\]$/g, ""));
  // Something that is neither is not an address we can vouch for.
  return v6 ? v6Blocked(v6) : true;
}

/** DNS over HTTPS (JSON API) against Cloudflare's resolver: A and AAAA answers of a name. */
export function dnsOverHttpsResolver(fetcher: typeof fetch = fetch): Resolver {
  const query = async (name: string, type: "A" | "AAAA"): Promise<string[]> => {
    const url = `https://cloudflare-dns.com/dns-query?name=${encodeURIComponent(name)}&type=${type}`;
    const response = await fetcher(url, { headers: { accept: "application/dns-json" } });
    if (!response.ok) throw new Error(`DNS over HTTPS answered ${response.status}`);
    const body = (await response.json()) as { Status?: number; Answer?: { type: number; data: string }[] };
    // NXDOMAIN (3) is an empty answer, anything else but NOERROR (0) a failure to know.
    if (body.Status !== 0 && body.Status !== 3) throw new Error(`DNS status ${body.Status}`);
    const wanted = type === "A" ? 1 : 28;
    return (body.Answer ?? []).filter((a) => a.type === wanted).map((a) => a.data);
  };
  return async (hostname) => {
    const [a, aaaa] = await Promise.all([query(hostname, "A"), query(hostname, "AAAA")]);
    return [...a, ...aaaa];
  };
}

function refuse(reason: string): UrlVerdict {
  return { ok: false, reason };
}

/**
 * Whether the platform may POST to this URL. Always: an absolute http(s) URL without credentials. Outside local
 * mode also: https, a public DNS name or public IP literal, and (for names) every A/AAAA answer public. A
 * resolver failure refuses, so a URL is never accepted on a guess.
 */
export async function checkWebhookUrl(url: string, options: UrlCheckOptions): Promise<UrlVerdict> {
  if (url.length > MAX_URL_LENGTH) return refuse(`must be at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse("must be an absolute URL, e.g. https://example.com/webhooks");
  }
  const strict = options.environment !== "local";
  if (parsed.protocol !== "https:" && (strict || parsed.protocol !== "http:")) {
    return refuse(strict ? "must use https" : "must use https (or http in local mode)");
  }
  if (parsed.username || parsed.password) return refuse("must not contain a user name or password");
  if (!strict) return { ok: true };

  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") || parseV4(host)) {
    return isPrivateAddress(host)
      ? refuse("must not point at a private, loopback, link-local or reserved address")
      : { ok: true };
  }
  if (BLOCKED_NAMES.includes(host) || BLOCKED_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return refuse("must not point at a local or internal host name");
  }
  if (!host.includes(".")) return refuse("must use a fully qualified public host name");

  let addresses: string[];
  try {
    addresses = await (options.resolve ?? dnsOverHttpsResolver())(host);
  } catch {
    return refuse("has a host name that could not be resolved; try again later");
  }
  if (addresses.length === 0) return refuse("has a host name that does not resolve");
  if (addresses.some(isPrivateAddress)) {
    return refuse("has a host name that resolves to a private, loopback, link-local or reserved address");
  }
  return { ok: true };
}
