import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkFormatCreate } from "../../lib/schemas/artwork-formats";
import { ArtworkFormat, ArtworkIdParams } from "../../lib/schemas/artworks";
import { createArtworkFormat } from "../../services/artwork-formats/create";

const route = operation({
  operationId: "createArtworkFormat",
  method: "post",
  path: "/gallery/artworks/{id}/formats",
  tags: ["Artworks"],
  summary: "Add a format to an artwork",
  description:
    "Adds a sellable format at `position` (after the last by default); the formats at and after it move one place back. On a published work the format is added to the work's draft (`GET …/formats?draft=true` shows it; the live work shows it once the draft is published). A work holds at most 100 formats (409 beyond). The response shows the price (writers are never read-only). Emits `artwork_format.created`.",
  auth: { scopes: ["artworks:create"] },
  idempotent: true,
  pathIds: { id: "art" },
  exampleBody: { label: "Print" },
  request: {
    params: ArtworkIdParams,
    body: { required: true, content: { "application/json": { schema: ArtworkFormatCreate } } },
  },
  responses: {
    201: {
      description: "The created format.",
      content: { "application/json": { schema: ArtworkFormat } },
    },
  },
});

export function registerArtworkFormatsCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await createArtworkFormat(serviceContext(c), id, c.req.valid("json")));
  });
}
