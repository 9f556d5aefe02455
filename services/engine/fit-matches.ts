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
  fitMatchModel,
  PRIOR_MATCH_MODEL,
  reliabilityTable,
  trainingExamples,
} from "../../lib/engine/matcher";
import { MATCH_QUESTIONS, type MatchModel, type MatchQuestion, type MatchWork } from "../../lib/engine/types";
import type { Env } from "../../lib/env";

/**
 * Fitting each gallery's match model on its own outcomes (docs/decisions.md, "The matcher in the loop"): from the
 * cron Worker, at most FIT_GALLERIES_PER_TICK galleries a tick, each at most once every FIT_EVERY_HOURS, and only
 * galleries with a sale. A fit reads the FIT_CONTACTS contacts with the newest outcomes (sales, feedback) with
 * their bounded inputs, and the FIT_WORKS newest works as sampled negatives; the model is the prior moved by the
 * examples (lib/engine/matcher.ts fitMatchModel), stored in match_models with its reliability table on its own
 * examples. Contacts judged after it use it; a contact is not judged again only because the model moved.
 */

export const FIT_EVERY_HOURS = 24;
export const FIT_GALLERIES_PER_TICK = 1;

export type FitEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">;

/** The model's probability for sub-scores: σ(bias + Σ weights[q] · sub_scores[q]) (lib/engine/types.ts). */
function probabilityOf(model: MatchModel, subScores: Record<MatchQuestion, number>): number {
  let z = model.bias;
  for (const q of MATCH_QUESTIONS) z += (model.weights[q] ?? 0) * (subScores[q] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

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
    const model = { ...fitMatchModel(examples, PRIOR_MATCH_MODEL), affinity: fitArtistAffinity(contacts) };
    const calibration = reliabilityTable(
      examples.map((e) => ({ p: probabilityOf(model, e.subScores), label: e.label })),
    );
    await db.execute(upsertMatchModel(galleryId, { ...model, calibration }, now.toISOString()));
    results.push({ gallery_id: galleryId, examples: model.examples, positives: model.positives });
  }
  return results;
}
