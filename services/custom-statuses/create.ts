import { customStatusResource, insertCustomStatus } from "../../db/queries/catalogue";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { CustomStatus, type CustomStatusCreateInput } from "../../lib/schemas/catalogue";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Creates a custom status (colour `slate` unless given), placed after the gallery's last one unless a
 * `position` is given; records `custom_status.created`.
 */
export function createCustomStatus(ctx: ServiceContext, input: CustomStatusCreateInput) {
  const { db, principal } = ctx;
  const id = newId("cst");
  const at = nextTimestamp();
  const object = customStatusResource.jsonById(principal.galleryId, id, {});
  return executeWrite(ctx, {
    schema: CustomStatus,
    statements: [
      insertCustomStatus(db, {
        ...input,
        id,
        gallery_id: principal.galleryId,
        created_at: at,
        updated_at: at,
      }),
    ],
    events: [changeEvent("custom_status.created", "custom_status", id, object)],
    status: 201,
    body: object,
  });
}
