import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkFormatParams } from "../../lib/schemas/artwork-formats";
import { DeleteResult } from "../../lib/schemas/artworks";
import { deleteArtworkFormat } from "../../services/artwork-formats/delete";

const route = operation({
  operationId: "deleteArtworkFormat",
  method: "delete",
  path: "/gallery/artworks/{id}/formats/{formatId}",
  tags: ["Artworks"],
  summary: "Delete an artwork's format",
  description:
    "Removes the format; the formats after it move up one place. On a published work the format is removed in the work's draft and stays live until the draft is published. Emits `artwork_format.deleted` whose `data.object` is the format's last state.",
  auth: { scopes: ["artworks:delete"] },
  idempotent: true,
  pathIds: { id: "art", formatId: "fmt" },
  request: { params: ArtworkFormatParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerArtworkFormatsDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, formatId } = c.req.valid("param");
    return respond(c, await deleteArtworkFormat(serviceContext(c), id, formatId));
  });
}
