import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Show, ShowCreate } from "../../lib/schemas/shows";
import { createShow } from "../../services/shows/create";

const route = operation({
  operationId: "createShow",
  method: "post",
  path: "/gallery/shows",
  tags: ["Shows"],
  summary: "Create a show",
  description:
    "Creates a show (an exhibition): `title`, and optionally `description`, `starts_on` / `ends_on` (YYYY-MM-DD; ends_on on or after starts_on, else 400 naming `ends_on`), `status` (`planned` by default; `open`, `closed`, `cancelled`), `venue` and `artwork_ids` (up to 200 distinct works of this gallery, in order; another gallery's or an unknown work is 400 naming `artwork_ids`). Tags are added with POST /gallery/shows/{showId}/tags. Emits `show.created`.",
  auth: { scopes: ["shows:create"] },
  idempotent: true,
  exampleBody: { title: "Tidewater: New Paintings", starts_on: "2025-03-06", ends_on: "2025-04-19" },
  request: {
    body: { required: true, content: { "application/json": { schema: ShowCreate } } },
  },
  responses: {
    201: { description: "The new show.", content: { "application/json": { schema: Show } } },
  },
});

export function registerShowsCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createShow(serviceContext(c), c.req.valid("json"))));
}
