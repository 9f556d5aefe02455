import { insertTag, refuseDuplicateTag, tagResource } from "../../db/queries/catalogue";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { Tag, type TagCreateInput } from "../../lib/schemas/catalogue";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Creates a tag in its scope (artwork by default); a name the scope already has, ignoring case, is 409
 * `conflict` naming the existing tag. Records `tag.created`.
 */
export function createTag(ctx: ServiceContext, input: TagCreateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const id = newId("tag");
  const at = nextTimestamp();
  const scope = input.scope ?? "artwork";
  const object = tagResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: Tag,
    statements: [
      refuseDuplicateTag(galleryId, scope, input.name, id),
      insertTag(db, { name: input.name, scope, id, gallery_id: galleryId, created_at: at, updated_at: at }),
    ],
    events: [changeEvent("tag.created", "tag", id, object)],
    status: 201,
    body: object,
  });
}
