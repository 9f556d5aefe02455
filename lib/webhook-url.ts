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

/**
 * What a special-purpose range means for an outgoing call: `refuse`; `allow` (global unicast); or judge the IPv4
 * address embedded at byte `v4At` (NAT64, 6to4).
 */
type RangeRule = "refuse" | "allow" | { v4At: number };

/**
 * The one table of address ranges, after the IANA IPv4 and IPv6 Special-Purpose Address Registries (every entry
 * whose "Globally Reachable" is False or N/A), plus multicast. The longest matching prefix decides. IPv6 is
 * refused outside global unicast (2000::/3) unless a row says otherwise, which also covers the reserved space
 * the registries do not list one by one. docs/decisions.md ("Webhook endpoints") explains the choices.
 */
export const ADDRESS_RANGES: readonly (readonly [cidr: string, rule: RangeRule, name: string])[] = [
  // IPv4: public unless listed.
  ["0.0.0.0/0", "allow", "IPv4 unicast"],
  ["0.0.0.0/8", "refuse", "this network (RFC 791)"],
  ["10.0.0.0/8", "refuse", "private use (RFC 1918)"],
  ["100.64.0.0/10", "refuse", "shared address space, carrier-grade NAT (RFC 6598)"],
  ["127.0.0.0/8", "refuse", "loopback (RFC 1122)"],
  ["169.254.0.0/16", "refuse", "link-local, cloud metadata 169.254.169.254 (RFC 3927)"],
  ["172.16.0.0/12", "refuse", "private use (RFC 1918)"],
  // Whole /24, including the globally reachable anycast 192.0.0.9 (PCP) and 192.0.0.10 (TURN): no webhooks there.
  ["192.0.0.0/24", "refuse", "IETF protocol assignments (RFC 6890), DS-Lite, NAT64 discovery"],
  ["192.0.2.0/24", "refuse", "documentation TEST-NET-1 (RFC 5737)"],
  ["192.88.99.0/24", "refuse", "deprecated 6to4 relay anycast (RFC 7526)"],
  ["192.168.0.0/16", "refuse", "private use (RFC 1918)"],
  ["198.18.0.0/15", "refuse", "benchmarking (RFC 2544)"],
  ["198.51.100.0/24", "refuse", "documentation TEST-NET-2 (RFC 5737)"],
  ["203.0.113.0/24", "refuse", "documentation TEST-NET-3 (RFC 5737)"],
  ["224.0.0.0/4", "refuse", "multicast (RFC 5771)"],
  ["240.0.0.0/4", "refuse", "reserved (RFC 1112)"],
  ["255.255.255.255/32", "refuse", "limited broadcast (RFC 919)"],
  // IPv6: refused unless global unicast.
  ["::/0", "refuse", "not global unicast (IPv6 address space registry)"],
  ["::/128", "refuse", "unspecified (RFC 4291)"],
  ["::1/128", "refuse", "loopback (RFC 4291)"],
  ["::/96", "refuse", "IPv4-compatible, deprecated (RFC 4291)"],
  ["::ffff:0:0/96", "refuse", "IPv4-mapped (RFC 4291)"],
  ["::ffff:0:0:0/96", "refuse", "IPv4-translated (RFC 2765)"],
  [
    "64:ff9b::/96",
    { v4At: 12 },
    "IPv4/IPv6 translation, well-known prefix (RFC 6052): the embedded IPv4 decides",
  ],
  ["64:ff9b:1::/48", "refuse", "local-use IPv4/IPv6 translation (RFC 8215)"],
  ["100::/64", "refuse", "discard-only (RFC 6666)"],
  ["100:0:0:1::/64", "refuse", "dummy IPv6 prefix (RFC 9780)"],
  ["2000::/3", "allow", "global unicast"],
  // Whole /23, including its globally reachable anycast, AMT, AS112, ORCHIDv2 and DRIP sub-blocks: no webhooks there.
  ["2001::/23", "refuse", "IETF protocol assignments (RFC 2928), Teredo, benchmarking, ORCHID"],
  ["2001:db8::/32", "refuse", "documentation (RFC 3849)"],
  ["2002::/16", { v4At: 2 }, "6to4 (RFC 3056): the embedded IPv4 decides"],
  ["3fff::/20", "refuse", "documentation (RFC 9637)"],
  ["5f00::/16", "refuse", "segment routing SIDs (RFC 9602)"],
  ["fc00::/7", "refuse", "unique-local (RFC 4193)"],
  ["fe80::/10", "refuse", "link-local unicast (RFC 4291)"],
  ["fec0::/10", "refuse", "site-local, deprecated (RFC 3879)"],
  ["ff00::/8", "refuse", "multicast (RFC 4291)"],
];

function parseV4(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
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

interface ParsedRange {
  bytes: readonly number[];
  bits: number;
  rule: RangeRule;
}

/** The table parsed once, longest prefix first, per family (4 or 16 bytes). */
const parsedRanges: ParsedRange[] = ADDRESS_RANGES.map(([cidr, rule]) => {
  const [network, bits] = cidr.split("/") as [string, string];
  const bytes = parseV4(network) ?? parseV6(network);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, bits: Number(bits), rule };
}).sort((a, b) => b.bits - a.bits);

function inRange(address: readonly number[], range: ParsedRange): boolean {
  if (address.length !== range.bytes.length) return false;
  for (let bit = 0; bit < range.bits; bit += 8) {
    const keep = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - keep)) & 0xff;
    if ((address[bit / 8]! & mask) !== (range.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

/** Whether the table refuses an address given as 4 or 16 bytes. */
function refused(address: readonly number[]): boolean {
  const range = parsedRanges.find((r) => inRange(address, r));
  if (!range || range.rule === "refuse") return true;
  if (range.rule === "allow") return false;
  return refused(address.slice(range.rule.v4At, range.rule.v4At + 4));
}

/**
 * Whether an IP address (v4 dotted, or v6, bracketed or not) must not be called: private, loopback, link-local,
 * documentation, reserved, or otherwise not globally reachable unicast (see ADDRESS_RANGES).
 */
export function isPrivateAddress(address: string): boolean {
  const v4 = parseV4(address);
  if (v4) return refused(v4);
  const v6 = parseV6(address.replace(/^\[|\]$/g, ""));
  // Something that is neither is not an address we can vouch for.
  return v6 ? refused(v6) : true;
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
