import type { z } from "zod";
import { nextTimestamp } from "../../db/queries/rows";
import {
  insertShowTag,
  lockShow,
  refuseDuplicateShowTag,
  refuseWhenShowFull,
  showTagResource,
} from "../../db/queries/show-tags";
import { showExists } from "../../db/queries/shows";
import { newId } from "../../lib/ids";
import { ShowTag, type ShowTagCreateInput } from "../../lib/schemas/shows";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, notFoundUnlessReplay } from "../write";

/**
 * Adds a tag to the show, under the show's row lock: a name the show already has, ignoring case, is 409 naming
 * the existing tag; a show holding MAX_TAGS_PER_SHOW tags is 409. Records `show_tag.created`.
 */
export async function createShowTag(ctx: ServiceContext, showId: string, input: ShowTagCreateInput) {
  const galleryId = ctx.principal.galleryId;
  if (!(await showExists(ctx.db, galleryId, showId))) {
    return notFoundUnlessReplay<z.output<typeof ShowTag>, 201>(ctx, `No show ${showId} in this gallery.`);
  }
  const id = newId("stag");
  const at = nextTimestamp();
  const object = showTagResource.jsonById(galleryId, id, {});
  const tag = {
    id,
    name: input.name,
    color: input.color ?? "slate",
    facet: input.facet,
    origin: input.origin ?? "manual",
  };
  return executeWrite(ctx, {
    schema: ShowTag,
    statements: [
      lockShow(galleryId, showId),
      refuseDuplicateShowTag(showId, input.name, id),
      refuseWhenShowFull(showId),
      insertShowTag(galleryId, showId, tag, at),
    ],
    events: [changeEvent("show_tag.created", "show_tag", id, object, undefined, { show_id: showId })],
    status: 201,
    body: object,
  });
}
