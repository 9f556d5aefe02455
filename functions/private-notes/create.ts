import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ContactIdParams } from "../../lib/schemas/contacts";
import { PrivateNote, PrivateNoteCreate } from "../../lib/schemas/private-notes";
import { createPrivateNote } from "../../services/private-notes/create";

const route = operation({
  operationId: "createPrivateNote",
  method: "post",
  path: "/gallery/contacts/{id}/private-notes",
  tags: ["Contacts"],
  summary: "Add a private note to a contact",
  description:
    "Adds a confidential note, kept as written; `author_id` is the member of the session (null with an API key). Works on an archived contact too. Emits `private_note.created`, whose `data.object` leaves the body out: events are readable with `events:read` and delivered to webhooks.",
  auth: { scopes: ["contacts:create"] },
  idempotent: true,
  pathIds: { id: "con" },
  exampleBody: { body: "Prefers to be called in the afternoon; discreet about the Hockney." },
  request: {
    params: ContactIdParams,
    body: { required: true, content: { "application/json": { schema: PrivateNoteCreate } } },
  },
  responses: {
    201: { description: "The created note.", content: { "application/json": { schema: PrivateNote } } },
  },
});

export function registerPrivateNotesCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await createPrivateNote(serviceContext(c), id, c.req.valid("json")));
  });
}
