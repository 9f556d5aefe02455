import { insertLocation, locationResource } from "../../db/queries/catalogue";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { Location, type LocationCreateInput } from "../../lib/schemas/catalogue";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/** Creates a location (kind `storage` unless given); records `location.created`. */
export function createLocation(ctx: ServiceContext, input: LocationCreateInput) {
  const { db, principal } = ctx;
  const id = newId("loc");
  const at = nextTimestamp();
  const object = locationResource.jsonById(principal.galleryId, id, {});
  return executeWrite(ctx, {
    schema: Location,
    statements: [
      insertLocation(db, { ...input, id, gallery_id: principal.galleryId, created_at: at, updated_at: at }),
    ],
    events: [changeEvent("location.created", "location", id, object)],
    status: 201,
    body: object,
  });
}
