import { z } from "@hono/zod-openapi";
import { privateNoteList } from "../../db/queries/private-notes";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { ContactIdParams } from "../../lib/schemas/contacts";
import { PrivateNote } from "../../lib/schemas/private-notes";
import { listPrivateNotes } from "../../services/private-notes/read";

const PrivateNoteList = listResponse(PrivateNote, "PrivateNoteList");

const route = operation({
  operationId: "listPrivateNotes",
  method: "get",
  path: "/gallery/contacts/{id}/private-notes",
  tags: ["Contacts"],
  summary: "List a contact's private notes",
  description:
    "The contact's confidential notes, newest first, for the gallery's editors. A viewer receives an empty set, not an error: a member session with the viewer role, or an API key that is read-only (every scope `:read`). A member session with the editor role, or a key with any scope beyond `:read`, is an editor. A contact of another gallery is 404 for everyone.",
  auth: { scopes: ["contacts:read"] },
  pathIds: { id: "con" },
  list: privateNoteList,
  request: { params: ContactIdParams, query: z.strictObject(paginationQuery(privateNoteList)) },
  responses: {
    200: {
      description: "A page of private notes (always empty for a viewer).",
      content: { "application/json": { schema: PrivateNoteList } },
    },
  },
});

export function registerPrivateNotesList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { id } = c.req.valid("param");
    return listPage<z.infer<typeof PrivateNoteList>>(c, route, c.req.valid("query"), (page) =>
      listPrivateNotes(ctx, id, page),
    );
  });
}
