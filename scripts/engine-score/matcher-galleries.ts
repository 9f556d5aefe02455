/**
 * The labelled collectors' further galleries (test/engine/labelled/collectors-g{n}.json, made by
 * scripts/engine-score/matcher-collectors.ts), read from disk for `npm run engine:score`. The tests read only
 * collectors.json (block 0), which the matcher's scoring module imports.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { LabelledGallery } from "./matcher";

const LABELLED = "test/engine/labelled";

export function readGalleries(): LabelledGallery[] {
  return readdirSync(LABELLED)
    .filter((f) => /^collectors-g\d+\.json$/.test(f))
    .sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]))
    .map((f) => JSON.parse(readFileSync(`${LABELLED}/${f}`, "utf8")) as LabelledGallery);
}
