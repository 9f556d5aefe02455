import { and, eq } from "drizzle-orm";
import type { StoredResponse } from "../../lib/idempotency";
import type { Db } from "../client";
import { idempotencyKeys } from "../schema";

export async function findIdempotencyClaim(
  db: Db,
  galleryId: string,
  key: string,
): Promise<StoredResponse | null> {
  const rows = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.responseStatus,
      body: idempotencyKeys.responseBody,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.galleryId, galleryId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return rows[0] ?? null;
}
