import { httpDb } from "../../db/client";
import {
  newestTriageCorrection,
  type TriageCorrectionRow,
  triageCorrections,
  triageGalleriesDue,
  upsertTriageAdjustment,
} from "../../db/queries/engine-triage";
import { type AdjustmentExample, fitIntentAdjustment } from "../../lib/engine/adjustment";
import { intentExample, SHARED_INTENT_MODEL, TRIAGE_MODEL } from "../../lib/engine/triage-judge";
import { CHANNELS, type Channel, type TriageInput } from "../../lib/engine/types";
import type { Env } from "../../lib/env";

/**
 * Fitting each gallery's triage adjustment on its members' corrected intents (docs/decisions.md, "Each gallery's
 * triage adjustment"): from the engine Worker's scheduled handler (services/engine/fit.ts), at most
 * FIT_TRIAGE_GALLERIES_PER_TICK galleries a tick, those with a correction newer than their adjustment read (or
 * whose adjustment was fitted over another shared model). A fit reads the gallery's FIT_TRIAGE_CORRECTIONS newest
 * corrections (the newest of each thread), rebuilds each as the one-message thread the judge would read (the
 * corrected message, its subject and channel), and fits the offset to the shared intent model's scores
 * (lib/engine/adjustment.ts), stored in triage_adjustments. Threads judged after it use it; a thread is not judged
 * again only because the adjustment moved.
 */

export const FIT_TRIAGE_GALLERIES_PER_TICK = 2;
export const FIT_TRIAGE_CORRECTIONS = 500;

export type FitTriageEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">;

export interface TriageFitResult {
  gallery_id: string;
  examples: number;
  version: string;
}

/** A corrected message as the judge reads a thread of one inbound message. */
export function correctionInput(row: TriageCorrectionRow): TriageInput {
  const channel = (CHANNELS as readonly string[]).includes(row.channel ?? "")
    ? (row.channel as Channel)
    : "email";
  return {
    channel,
    messages: [
      {
        direction: "inbound",
        body: row.text ?? "",
        subject: row.subject,
        sentAt: row.created_at,
        fromName: null,
        fromAddress: null,
      },
    ],
    timeZone: null,
  };
}

/** Fits the galleries due (or the one named, due or not), one after the other. */
export async function fitTriageAdjustments(
  env: FitTriageEnv,
  options: { galleryId?: string; now?: Date } = {},
): Promise<TriageFitResult[]> {
  const db = httpDb(env);
  const now = options.now ?? new Date();
  const due = options.galleryId
    ? [options.galleryId]
    : (
        await db.execute<{ id: string }>(triageGalleriesDue(TRIAGE_MODEL, FIT_TRIAGE_GALLERIES_PER_TICK))
      ).rows.map((r) => r.id);
  const classes = SHARED_INTENT_MODEL.data.classes;
  const results: TriageFitResult[] = [];
  for (const galleryId of due) {
    const [corrections, newest] = (await db.batch([
      db.execute(triageCorrections(galleryId, FIT_TRIAGE_CORRECTIONS)),
      db.execute(newestTriageCorrection(galleryId)),
    ])) as unknown as [{ rows: TriageCorrectionRow[] }, { rows: { at: string | null }[] }];
    const examples: AdjustmentExample[] = [];
    for (const row of corrections.rows) {
      const label = classes.indexOf(row.intent);
      if (label < 0) continue;
      examples.push({ ...intentExample(correctionInput(row)), label });
    }
    const adjustment = fitIntentAdjustment(examples, SHARED_INTENT_MODEL.data.bits, {
      shared: TRIAGE_MODEL,
      classes: classes.length,
    });
    await db.execute(
      upsertTriageAdjustment(galleryId, adjustment, newest.rows[0]?.at ?? null, now.toISOString()),
    );
    results.push({ gallery_id: galleryId, examples: adjustment.examples, version: adjustment.version });
  }
  return results;
}
