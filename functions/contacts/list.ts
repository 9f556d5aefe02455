import { z } from "@hono/zod-openapi";
import { archivedValues } from "../../db/queries/contact-filters";
import { contactList } from "../../db/queries/contacts";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { csvParam, idString } from "../../lib/params";
import { contactFilterQueryShape } from "../../lib/schemas/contact-filters";
import { Contact } from "../../lib/schemas/contacts";
import { listContacts } from "../../services/contacts/read";

const ContactPage = listResponse(Contact, "ContactPage");

const RUBRIC_KEY = /^segment:list_[0-9a-z]{10,40}$/;

const query = z.strictObject({
  ...paginationQuery(contactList),
  ids: csvParam(idString("con"), {
    max: 50,
    description: "Comma-separated contact ids, 1 to 50: fetches an explicit set (other filters still apply).",
  }).optional(),
  ...contactFilterQueryShape,
  list_id: idString("list").optional().openapi({
    description:
      "Members of this contact list: a static list's members, or a dynamic list's live result (which never holds an archived contact). A list that is not this gallery's has no members.",
  }),
  archived: z.enum(archivedValues).optional().openapi({
    default: "exclude",
    description:
      "Which contacts the archive shelf contributes: `exclude` (default) lists unarchived contacts only, `include` lists both, `only` lists archived contacts only. `false` means `exclude` and `true` means `only`.",
  }),
  judged_rubric: z
    .string()
    .min(1)
    .max(120)
    .regex(RUBRIC_KEY, { message: "must be a rubric key of the form segment:<list id>" })
    .optional()
    .openapi({
      description:
        "Contacts the engine judged true, with probability at least 0.6, under this rubric key: `segment:<list id>` (a dynamic list's `described_as`). 1 to 120 characters. Contacts not judged yet match nothing.",
    }),
});

const route = operation({
  operationId: "listContacts",
  method: "get",
  path: "/gallery/contacts",
  tags: ["Contacts"],
  summary: "List contacts",
  description:
    "The roster, newest first by default; `sort=name` orders by name (`dir=asc` for A to Z). Archived contacts are left out unless `archived` says otherwise. Filters combine with AND; the values of a repeated `tag_id` combine with OR. `q` matches a case-insensitive substring of the name, the email or the company.",
  auth: { scopes: ["contacts:read", "sales:read"] },
  list: contactList,
  request: { query },
  responses: {
    200: {
      description: "A page of contacts.",
      content: { "application/json": { schema: ContactPage } },
    },
  },
});

export function registerContactsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof ContactPage>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listContacts(ctx, filters, page),
    );
  });
}
