import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Publication, PublicationIdParams } from "../../lib/schemas/publications";
import { unpublishPublication } from "../../services/publications/update";

const route = operation({
  operationId: "unpublishPublication",
  method: "post",
  path: "/gallery/publications/{id}/unpublish",
  tags: ["Publications"],
  summary: "Unpublish a publication",
  description:
    "Takes the publication out of publication: `published` becomes false and `published_at` null, exactly as PATCH with `published: false`. Publishing again (PATCH `published: true`) sets a new `published_at`. Emits `publication.updated` and `publication.unpublished`; an unpublished publication answers as it is and emits nothing.",
  auth: { scopes: ["publications:update"] },
  idempotent: true,
  pathIds: { id: "pub" },
  request: { params: PublicationIdParams },
  responses: {
    200: {
      description: "The publication, unpublished.",
      content: { "application/json": { schema: Publication } },
    },
  },
});

export function registerPublicationsUnpublish(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await unpublishPublication(serviceContext(c), id));
  });
}
