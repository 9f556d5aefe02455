import { type Db, httpDb } from "../../db/client";
import { type DueOffer, dueOffers } from "../../db/queries/offers";
import type { Env } from "../../lib/env";
import { ApiError } from "../../lib/problem";
import type { WriteContext } from "../context";
import { executeWrite } from "../write";
import { offerChange } from "./update";

/**
 * The scheduled send, as the cron Worker runs it each minute: every scheduled offer whose `scheduled_at` has come
 * becomes `sent`, exactly as a PATCH `status: "sent"` would make it (offerChange: sent_at, pending recipients
 * `sent`, `offer.updated` then `offer.sent`).
 */

/** Offers sent per pass at most (one database round trip each); a backlog goes out over the next minutes. */
export const SCHEDULED_SEND_LIMIT = 20;

export type ScheduledSendEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">;

export interface ScheduledSendOptions {
  /** The clock of the pass: offers scheduled at or before it are due. The database's `now()` when absent. */
  now?: Date;
  /** Offers sent at most (default SCHEDULED_SEND_LIMIT). */
  limit?: number;
  /** Only this gallery's offers: test isolation, as the webhook drain's. */
  galleryId?: string;
}

export interface ScheduledSendResult {
  /** Scheduled offers found due. */
  due: number;
  /** Of those, the offers this pass sent. */
  sent: number;
  /** Found due but changed before this pass could send them (rescheduled, cancelled, or sent by another pass). */
  skipped: number;
}

/**
 * Sends one due offer as read, for the gallery it belongs to. The write is guarded by the updated_at read with it:
 * an offer that changed since (a PATCH, or an overlapping pass that sent it first) aborts the transaction with
 * `concurrent_modification`, and the offer is left as it now is. So each offer goes out exactly once, and never
 * after it was rescheduled or cancelled. Returns whether this call sent it.
 */
export async function sendDueOffer(db: Db, offer: DueOffer): Promise<boolean> {
  const ctx: WriteContext = {
    db,
    principal: { galleryId: offer.galleryId, livemode: offer.livemode, credentialId: null },
    requestId: null,
    claim: null,
    dryRun: false,
  };
  const plan = offerChange(db, offer.galleryId, offer, { status: "sent" });
  if (plan instanceof ApiError) throw plan;
  try {
    await executeWrite(ctx, plan);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === "concurrent_modification") return false;
    throw error;
  }
}

/**
 * One pass: reads up to `limit` due offers (one round trip), then sends each in its own guarded transaction (one
 * round trip each, side by side), so one offer changed meanwhile never holds back the others. Two passes that
 * overlap read the same offers; the guard lets exactly one of them send each. Anything but that race (the
 * database unreachable) fails the pass after every send has settled; the offers it left are due at the next tick.
 */
export async function sendScheduledOffers(
  env: ScheduledSendEnv,
  options: ScheduledSendOptions = {},
): Promise<ScheduledSendResult> {
  const db = httpDb(env);
  const due = await dueOffers(db, {
    now: options.now,
    limit: options.limit ?? SCHEDULED_SEND_LIMIT,
    galleryId: options.galleryId,
  });
  const outcomes = await Promise.allSettled(due.map((offer) => sendDueOffer(db, offer)));
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failed) throw failed.reason;
  const sent = outcomes.filter((o) => o.status === "fulfilled" && o.value).length;
  return { due: due.length, sent, skipped: due.length - sent };
}
