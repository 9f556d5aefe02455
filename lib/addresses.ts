import { z } from "zod";

/**
 * The addresses of the inbox, normalised once so that equal addresses compare equal: an email trimmed and
 * lower-cased (as contacts store theirs), a phone number in E.164. `e164` has a twin in SQL, the immutable
 * function `e164(text)` of migration 0008, which indexes contacts' phones for matching; the two agree on every
 * input (test/inbox/addresses.test.ts checks them against each other).
 */

/** A written international number: a leading `+` or `00`, then digits and the separators people type. */
const INTERNATIONAL = /^ *(?:\+|00)[0-9 .()/-]*$/;
const PREFIX = /^ *(?:\+|00)/;
/** A country code and subscriber number: 8 to 15 digits, never starting with 0. */
const E164_DIGITS = /^[1-9][0-9]{7,14}$/;

/**
 * A phone number in E.164 (`+` and 8 to 15 digits), or null when `value` is not an international number.
 * Accepted: `+` or `00`, then digits separated by spaces, dots, hyphens, slashes or parentheses; a trunk zero
 * written `(0)` is dropped (`+44 (0)20 7946 0958` → `+442079460958`). A national number without its country
 * code cannot be placed, so it is null.
 */
export function e164(value: string): string | null {
  const written = value.replaceAll("(0)", "");
  if (!INTERNATIONAL.test(written)) return null;
  const digits = written.replace(PREFIX, "").replace(/[^0-9]/g, "");
  return E164_DIGITS.test(digits) ? `+${digits}` : null;
}

const emailShape = z.email();

/** An email address trimmed and lower-cased, or null when it is not one (the contacts' rule). */
export function normaliseEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  return email.length <= 254 && emailShape.safeParse(email).success ? email : null;
}

export const inboxChannels = ["email", "whatsapp", "sms"] as const;
export type InboxChannel = (typeof inboxChannels)[number];

/** An address on `channel` as the inbox stores it (an email for email, a phone for WhatsApp and SMS), or null. */
export function normaliseAddress(channel: InboxChannel, value: string): string | null {
  return channel === "email" ? normaliseEmail(value) : e164(value);
}

/** What a 400 says of an address that is not one on its channel. */
export function addressProblem(channel: InboxChannel): string {
  return channel === "email"
    ? "must be an email address"
    : `must be an international phone number for ${channel} (+ or 00, the country code, then the number), e.g. +44 20 7946 0958`;
}
