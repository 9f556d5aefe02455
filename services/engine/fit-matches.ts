import { httpDb } from "../../db/client";
import {
  FIT_CONTACTS,
  FIT_WORKS,
  fitContactIds,
  fitWorks,
  galleriesToFit,
  type MatchContactRow,
  matchContactInputs,
  upsertMatchModel,
} from "../../db/queries/engine-matches";
import {
  fitArtistAffinity,
  fitMatchCalibration,
  fitMatchModel,
  GLOBAL_MATCH_CALIBRATION,
  matchProbability,
  PRIOR_MATCH_MODEL,
  reliabilityTable,
  trainingExamples,
} from "../../lib/engine/matcher";
import type { MatchWork } from "../../lib/engine/types";
import type { Env } from "../../lib/env";

/**
 * Fitting each gallery's match model on its own outcomes (docs/decisions.md, "The matcher in the loop"): from the
 * engine Worker's scheduled handler (services/engine/fit.ts), at most FIT_GALLERIES_PER_TICK galleries a tick,
 * each at most once every FIT_EVERY_HOURS, and only galleries with a sale. A fit reads the FIT_CONTACTS contacts with the newest outcomes (sales, feedback) with
 * their bounded inputs, and the FIT_WORKS newest works as sampled negatives; the model is the prior moved by the
 * examples (lib/engine/matcher.ts fitMatchModel), stored in match_models with its calibration: a map fitted on
 * the gallery's own outcomes judged by models fitted without them (5-fold cross-fit by contact), shrunk toward
 * the global map by how many outcomes it rests on (lib/engine/calibration.ts; docs/decisions.md, "Calibration of
 * the engine's probabilities"). The jsonb `calibration` column holds the map and, beside it (`reliability`),
 * the reliability table of the model's own examples as it now judges them. Contacts judged after it use it; a contact is not judged again only
 * because the model moved.
 */

export const FIT_EVERY_HOURS = 24;
export const FIT_GALLERIES_PER_TICK = 1;

export type FitEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">;

export interface FitResult {
  gallery_id: string;
  examples: number;
  positives: number;
}

/** Fits the galleries due (or the one named), one after the other. */
export async function fitMatchModels(
  env: FitEnv,
  options: { galleryId?: string; now?: Date } = {},
): Promise<FitResult[]> {
  const db = httpDb(env);
  const now = options.now ?? new Date();
  const due = options.galleryId
    ? [options.galleryId]
    : (await db.execute<{ id: string }>(galleriesToFit(FIT_EVERY_HOURS, FIT_GALLERIES_PER_TICK))).rows.map(
        (r) => r.id,
      );
  const results: FitResult[] = [];
  for (const galleryId of due) {
    const ids = (await db.execute<{ contact_id: string }>(fitContactIds(galleryId, FIT_CONTACTS))).rows.map(
      (r) => r.contact_id,
    );
    const [inputs, works] = (await db.batch([
      db.execute(matchContactInputs(galleryId, ids)),
      db.execute(fitWorks(galleryId, FIT_WORKS)),
    ])) as unknown as [{ rows: { body: string }[] }, { rows: { work: MatchWork }[] }];
    const contacts = (JSON.parse(inputs.rows[0]?.body ?? "[]") as MatchContactRow[]).map(
      ({ archived: _a, hides: _h, ...contact }) => contact,
    );
    const catalogue = works.rows.map((r) => ({
      ...r.work,
      priceCents: r.work.priceCents === null ? null : Number(r.work.priceCents),
    }));
    // Each contact's examples read the affinity the other contacts teach (its own purchases never score
    // themselves); the stored model carries the affinity of them all.
    const examples = trainingExamples(contacts, catalogue, now, { affinity: true });
    const raw = { ...PRIOR_MATCH_MODEL, calibration: undefined };
    const fitted = fitMatchModel(examples, raw);
    const map = fitMatchCalibration(examples, {
      prior: raw,
      towards: GLOBAL_MATCH_CALIBRATION,
      fittedOn: `the gallery's ${examples.length} outcomes, cross-fitted by contact, shrunk toward the global map`,
    });
    const model = { ...fitted, affinity: fitArtistAffinity(contacts), calibration: map };
    // The reliability table beside it: the model's own examples as it now judges them (in-sample).
    const reliability = reliabilityTable(
      examples.map((e) => ({ p: matchProbability(model, e.subScores), label: e.label })),
    );
    await db.execute(
      upsertMatchModel(galleryId, { ...model, calibration: { ...map, reliability } }, now.toISOString()),
    );
    results.push({ gallery_id: galleryId, examples: model.examples, positives: model.positives });
  }
  return results;
}
