import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Publication, PublicationCreate } from "../../lib/schemas/publications";
import { createPublication } from "../../services/publications/create";

const route = operation({
  operationId: "createPublication",
  method: "post",
  path: "/gallery/publications",
  tags: ["Publications"],
  summary: "Create a publication",
  description:
    "Creates a catalogue, monograph, article, essay, interview, press release or newsletter (`kind`, `catalogue` by default). `slug` is unique in the gallery: a given one that is taken is 409 `conflict` with `details.existing_id`; left out, it is derived from the title (`-2`, `-3`… when taken). `published: true` publishes it at once and sets `published_at`. A `price` (`price_cents`; `currency`, the gallery's default by default; `price_visibility`, `private` by default) writes the gated pricing record in the same transaction. `artwork_ids`: up to 200 distinct works of this gallery, in order (else 400 naming `artwork_ids`). `visibility` is `private` by default. The cover is uploaded afterwards (POST /gallery/publications/{id}/cover-upload, then PATCH). Emits `publication.created`, and `publication.published` when it is published.",
  auth: { scopes: ["publications:create"] },
  idempotent: true,
  exampleBody: { title: "Tidewater — Exhibition Catalogue", kind: "catalogue" },
  request: {
    body: { required: true, content: { "application/json": { schema: PublicationCreate } } },
  },
  responses: {
    201: { description: "The new publication.", content: { "application/json": { schema: Publication } } },
  },
});

export function registerPublicationsCreate(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await createPublication(serviceContext(c), c.req.valid("json"))),
  );
}
