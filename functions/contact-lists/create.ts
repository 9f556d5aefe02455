import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ContactList, ContactListCreate } from "../../lib/schemas/contact-lists";
import { createContactList } from "../../services/contact-lists/create";

const route = operation({
  operationId: "createContactList",
  method: "post",
  path: "/gallery/contact-lists",
  tags: ["Contact lists"],
  summary: "Create a contact list",
  description:
    "Creates a static list (members added with POST /gallery/contact-lists/{id}/members) or a dynamic one, whose members are the contacts matching `dynamic_query` at the time they are listed (never an archived contact). `dynamic_query` takes the contact filters with the same rules as `GET /gallery/contacts` (an unknown field is 400 naming `dynamic_query.<field>`), plus `email_consent` and `described_as` (contacts the engine judged to fit the description, under the rubric `segment:<list id>`). A list is static or dynamic for good. Emits `contact_list.created`.",
  auth: { scopes: ["contacts:create"] },
  idempotent: true,
  exampleBody: { title: "Spring opening", kind: "mailing" },
  request: {
    body: { required: true, content: { "application/json": { schema: ContactListCreate } } },
  },
  responses: {
    201: { description: "The created list.", content: { "application/json": { schema: ContactList } } },
  },
});

export function registerContactListsCreate(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await createContactList(serviceContext(c), c.req.valid("json"))),
  );
}
