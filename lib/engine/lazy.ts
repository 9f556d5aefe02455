/**
 * A value built on its first use and kept for the isolate's life. The engine Worker's global scope runs on every
 * cold start, the dead-letter consumer's and the fits' included, and counts against the 1 s startup limit; so the
 * judges' models, vocabularies and compiled cues are built the first time a judgment needs them, once per isolate,
 * never at import (docs/decisions.md, "Bundles and startup, per Worker").
 */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
