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
 * Prefixed, time-ordered ids (`art_01jd…`): 48 bits of milliseconds then 80 random bits, Crockford base32,
 * so ids sort by creation time and reveal nothing guessable.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let i = 0;
  return encodeId(prefix, now, () => bytes[i++]! % 32);
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
