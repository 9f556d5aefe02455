const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * Prefixed, time-ordered ids (`art_01jd…`): 48 bits of milliseconds then 80 random bits, Crockford base32,
 * so ids sort by creation time and reveal nothing guessable.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let rand = "";
  for (let i = 0; i < 16; i++) rand += CROCKFORD[bytes[i]! % 32];
  return `${prefix}_${time}${rand}`;
}

export const idPattern = /^[a-z]{2,6}_[0-9a-z]{10,40}$/;
