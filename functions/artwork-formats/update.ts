import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkFormatParams, ArtworkFormatUpdate } from "../../lib/schemas/artwork-formats";
import { ArtworkFormat } from "../../lib/schemas/artworks";
import { updateArtworkFormat } from "../../services/artwork-formats/update";

const route = operation({
  operationId: "updateArtworkFormat",
  method: "patch",
  path: "/gallery/artworks/{id}/formats/{formatId}",
  tags: ["Artworks"],
  summary: "Update or reorder an artwork's format",
  description:
    "Changes only the fields sent. A new `position` moves the format (a position at or past the end makes it the last) and shifts the formats in between, so positions stay 0 to n-1. On a published work the change goes to the work's draft. Emits `artwork_format.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["artworks:update"] },
  idempotent: true,
  pathIds: { id: "art", formatId: "fmt" },
  exampleBody: { label: "Framed print" },
  request: {
    params: ArtworkFormatParams,
    body: { required: true, content: { "application/json": { schema: ArtworkFormatUpdate } } },
  },
  responses: {
    200: {
      description: "The updated format (the working copy, on a published work).",
      content: { "application/json": { schema: ArtworkFormat } },
    },
  },
});

export function registerArtworkFormatsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, formatId } = c.req.valid("param");
    return respond(c, await updateArtworkFormat(serviceContext(c), id, formatId, c.req.valid("json")));
  });
}
