import { showTagsText } from "../../db/queries/show-tags";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** The show's tags by name, as `{data}` JSON text. */
export async function listShowTags(ctx: ServiceContext, showId: string): Promise<string> {
  const text = await showTagsText(ctx.db, ctx.principal.galleryId, showId);
  if (text === null) throw new ApiError("not_found", `No show ${showId} in this gallery.`);
  return text;
}
