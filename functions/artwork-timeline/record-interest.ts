import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkActivityEvent, ArtworkInterestCreate } from "../../lib/schemas/artwork-timeline";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { recordInterest } from "../../services/artwork-timeline/interest";

const route = operation({
  operationId: "recordArtworkInterest",
  method: "post",
  path: "/gallery/artworks/{id}/events",
  tags: ["Artworks"],
  summary: "Record interest in an artwork",
  description:
    "Appends an `interest` entry to the work's timeline: someone asked about it, saw it at a fair, wants first refusal. `contact_id` names the interested contact (one of this gallery's); `summary` defaults to `Interest from <contact name>`. Emits `artwork.interest_recorded` with the entry.",
  auth: { scopes: ["artworks:create"] },
  idempotent: true,
  pathIds: { id: "art" },
  exampleBody: { summary: "Asked for the price at the fair" },
  request: {
    params: ArtworkIdParams,
    body: { required: true, content: { "application/json": { schema: ArtworkInterestCreate } } },
  },
  responses: {
    201: {
      description: "The timeline entry.",
      content: { "application/json": { schema: ArtworkActivityEvent } },
    },
  },
});

export function registerArtworkTimelineRecordInterest(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await recordInterest(serviceContext(c), id, c.req.valid("json")));
  });
}
