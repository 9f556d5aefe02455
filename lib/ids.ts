const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/** `${prefix}_` + 10 Crockford digits of milliseconds + 16 random digits, each `digit()` in 0..31. */
function encodeId(prefix: string, now: number, digit: () => number): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = "";
  for (let i = 0; i < 16; i++) rand += CROCKFORD[digit()];
  return `${prefix}_${time}${rand}`;
}

/**
 * The random digits of the last id this isolate minted in each of its latest milliseconds (see newId), oldest
 * first; a few dozen are kept, so ids minted for other instants between two of one millisecond (a backdated
 * row, a pass run as of another time) leave that millisecond's sequence in order.
 */
const lastDigits = new Map<number, number[]>();
const REMEMBERED_MILLISECONDS = 64;

/** The random digits plus one, as a 16-digit base-32 number (a carry past the top wraps, 2^-80 unlikely). */
function incremented(digits: readonly number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    next[i] = (next[i]! + 1) % 32;
    if (next[i] !== 0) break;
  }
  return next;
}

/**
 * Prefixed, time-ordered ids (`art_01jd…`): 48 bits of milliseconds then 80 random bits, Crockford base32,
 * so ids sort by creation time and reveal nothing guessable. Within one millisecond of one isolate they are
 * monotonic (the random part of the previous id plus one), so the events a write records in order (such as
 * `fair_run.updated` then `fair_run.succeeded`, which share their `created_at`) also list in that order.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  const previous = lastDigits.get(now);
  const digits = previous
    ? incremented(previous)
    : [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b % 32);
  lastDigits.delete(now);
  lastDigits.set(now, digits);
  if (lastDigits.size > REMEMBERED_MILLISECONDS) lastDigits.delete(lastDigits.keys().next().value as number);
  let i = 0;
  return encodeId(prefix, now, () => digits[i++]!);
}

/**
 * Ids in `newId`'s format whose random part comes from `random` (uniform in [0, 1), one draw per digit)
 * instead of the system's source: with a seeded generator, the same sequence of ids on every run.
 * Only for generated data (the demo seed); such ids are as guessable as their generator.
 */
export function idMinter(random: () => number): (prefix: string, now: number) => string {
  return (prefix, now) => encodeId(prefix, now, () => Math.floor(random() * 32));
}

export const idPattern = /^[a-z]{2,6}_[0-9a-z]{10,40}$/;
