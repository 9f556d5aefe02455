import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { ArtworkJudgments } from "../../lib/schemas/judgments";
import { getArtworkJudgments } from "../../services/judgments/read";

const route = operation({
  operationId: "getArtworkJudgments",
  method: "get",
  path: "/gallery/artworks/{id}/judgments",
  tags: ["Artworks"],
  summary: "Explain an artwork's readiness and disclosure",
  description:
    "Why the work reads as it does in the `readiness` and `disclosure` filters. `readiness` says whether the record is ready for sale or publication, and lists what it has and what it lacks (an image, dimensions, medium, year, a price or price on request, a description, the artist, provenance for a secondary-market work). `disclosure` says whether the condition notes describe something a buyer must be told, with the phrases that decided it and their character offsets in the notes. Each is null until the engine has judged the work; `stale` is true while an edit waits to be judged. An artwork of another gallery is 404.",
  auth: { scopes: ["artworks:read"] },
  pathIds: { id: "art" },
  request: { params: ArtworkIdParams },
  responses: {
    200: {
      description: "The work's judgments and what they rest on.",
      content: { "application/json": { schema: ArtworkJudgments } },
    },
  },
});

export function registerArtworksJudgments(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getArtworkJudgments(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof ArtworkJudgments>, 200>(c, text, 200);
  });
}
