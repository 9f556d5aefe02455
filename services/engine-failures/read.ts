import { listDeadLetters, listEngineFailures } from "../../db/queries/engine-failures";
import { MAX_ATTEMPTS } from "../../lib/engine-queue";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { ServiceContext } from "../context";

/** The caller's gallery's engine subjects whose last attempt failed, latest failure first. */
export function listGalleryEngineFailures(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listEngineFailures(ctx.db, ctx.principal.galleryId, MAX_ATTEMPTS, page);
}

/** The caller's gallery's messages that reached a dead-letter queue, latest first. */
export function listGalleryDeadLetters(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listDeadLetters(ctx.db, ctx.principal.galleryId, page);
}
