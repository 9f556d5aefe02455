import type { ConnectorAuthentication } from "./message";

/**
 * The receiving server's verdicts on a mail's sender, read from its Authentication-Results header (RFC 8601):
 *
 *   Authentication-Results: mx.example; spf=pass smtp.mailfrom=a.example;
 *     dkim=fail (bad signature) header.d=a.example; dmarc=fail (p=REJECT) header.from=a.example
 *
 * An authserv-id (Microsoft 365 writes none), then `;`-separated results, each `method[/version]=result` followed
 * by a reason and properties. Comments in parentheses may hold anything, `;` included, and are dropped first.
 */

/** The methods read; a result of another method (`arc`, `compauth`, `bimi`) is passed over. */
const METHODS = ["spf", "dkim", "dmarc"] as const;
type Method = (typeof METHODS)[number];

/** One result: the method, an optional version, `=`, the result token. */
const RESULT = /^([a-z0-9-]+)(?:\s*\/\s*\d+)?\s*=\s*([a-z]+)/i;

/** The header value without its comments (nested ones too) and split at the `;` outside quoted strings. */
function segments(value: string): string[] {
  const out: string[] = [];
  let current = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted) {
      if (c === "\\") {
        current += c + (value[i + 1] ?? "");
        i++;
        continue;
      }
      if (c === '"') quoted = false;
      current += c;
    } else if (depth > 0) {
      if (c === "\\") i++;
      else if (c === "(") depth++;
      else if (c === ")") depth--;
    } else if (c === "(") {
      depth = 1;
      current += " ";
    } else if (c === '"') {
      quoted = true;
      current += c;
    } else if (c === ";") {
      out.push(current.trim());
      current = "";
    } else {
      current += c;
    }
  }
  out.push(current.trim());
  return out;
}

/**
 * The verdicts of the topmost Authentication-Results header: the one the receiving server added last, above any a
 * sender or a relay wrote before it. `headers` are the values in the order they appear in the message; null when
 * there are none. A method reported several times (two DKIM signatures) counts with its first result; results are
 * lower-cased. `failed` when DMARC failed, or when neither SPF nor DKIM passed and one of them failed (`fail`,
 * `softfail`, `permerror`): a domain that publishes nothing (`none` for both) has not failed anything.
 */
/** Verdicts that say the sender's claim was checked and did not hold. */
const FAILING = ["fail", "softfail", "permerror"];

export function parseAuthenticationResults(headers: readonly string[]): ConnectorAuthentication | null {
  const topmost = headers[0];
  if (topmost === undefined) return null;
  const verdicts: Record<Method, string | null> = { spf: null, dkim: null, dmarc: null };
  for (const segment of segments(topmost)) {
    const match = RESULT.exec(segment);
    if (!match) continue;
    const method = match[1]!.toLowerCase();
    if ((METHODS as readonly string[]).includes(method) && verdicts[method as Method] === null) {
      verdicts[method as Method] = match[2]!.toLowerCase();
    }
  }
  const { spf, dkim, dmarc } = verdicts;
  const failing = (verdict: string | null) => verdict !== null && FAILING.includes(verdict);
  const failed = dmarc === "fail" || (spf !== "pass" && dkim !== "pass" && (failing(spf) || failing(dkim)));
  return { spf, dkim, dmarc, failed };
}
