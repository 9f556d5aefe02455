import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Publication, PublicationIdParams, PublicationUpdate } from "../../lib/schemas/publications";
import { updatePublication } from "../../services/publications/update";

const route = operation({
  operationId: "updatePublication",
  method: "patch",
  path: "/gallery/publications/{id}",
  tags: ["Publications"],
  summary: "Update a publication",
  description:
    "Changes any field. `published: true` publishes it (`published_at` becomes now when it was unpublished); `published: false` unpublishes it and clears `published_at` (as POST …/unpublish does). `cover_image_path` sets the cover: it must be the `storage_path` of an upload minted for this publication (POST /gallery/publications/{id}/cover-upload) whose PUT has completed, else 400 naming `cover_image_path` (409 if storage lost the bytes); `cover_image_url` follows; null removes the cover, and a replaced cover's stored file is deleted. `price` writes the gated pricing record (its `currency` and `price_visibility` default to the current price's) and null removes it. `artwork_ids` replaces the works (this gallery's, else 400 naming it). A `slug` another publication has is 409 `conflict` with `details.existing_id`. Emits `publication.updated` with `previous_attributes`, then `publication.published` or `publication.unpublished` when that changed; a request that changes nothing emits nothing.",
  auth: { scopes: ["publications:update"] },
  idempotent: true,
  pathIds: { id: "pub" },
  exampleBody: { visibility: "public" },
  request: {
    params: PublicationIdParams,
    body: { required: true, content: { "application/json": { schema: PublicationUpdate } } },
  },
  responses: {
    200: {
      description: "The updated publication.",
      content: { "application/json": { schema: Publication } },
    },
  },
});

export function registerPublicationsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updatePublication(serviceContext(c), id, c.req.valid("json")));
  });
}
