import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { boolParam } from "../../lib/params";
import { ArtworkFormatList } from "../../lib/schemas/artwork-formats";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { listArtworkFormats } from "../../services/artwork-formats/read";

const route = operation({
  operationId: "listArtworkFormats",
  method: "get",
  path: "/gallery/artworks/{id}/formats",
  tags: ["Artworks"],
  summary: "List an artwork's formats",
  description:
    "The work's sellable formats (sizes, papers, framings) ordered by `position`, all in one page: a work has at most 100 formats, so this list takes no `limit` or `cursor` and `next_cursor` is always null. `price_cents` is null for a read-only key unless the work is public-priced (`show_price_publicly`).",
  auth: { scopes: ["artworks:read"] },
  pathIds: { id: "art" },
  gatedPrices: ["data[].price_cents"],
  request: {
    params: ArtworkIdParams,
    query: z.strictObject({
      draft: boolParam(
        "true: the working copy of a published work (formats added, changed or removed in its draft).",
      ).optional(),
    }),
  },
  responses: {
    200: {
      description: "The work's formats.",
      content: { "application/json": { schema: ArtworkFormatList } },
    },
  },
});

export function registerArtworkFormatsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { draft } = c.req.valid("query");
    const text = await listArtworkFormats(serviceContext(c), id, { draft: draft === true });
    return sendJson<z.infer<typeof ArtworkFormatList>, 200>(c, text, 200);
  });
}
