import { z } from "@hono/zod-openapi";
import { rubricJudgmentList } from "../../db/queries/judgments";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { paginationQuery } from "../../lib/pagination";
import { ContactListIdParams } from "../../lib/schemas/contact-lists";
import { RubricJudgmentList, RubricJudgmentsQueryContact } from "../../lib/schemas/judgments";
import { listRubricJudgmentsPage } from "../../services/judgments/read";

const route = operation({
  operationId: "listContactListJudgments",
  method: "get",
  path: "/gallery/contact-lists/{id}/judgments",
  tags: ["Contact lists"],
  summary: "Explain how a list's description judged contacts",
  description:
    "How the engine judged contacts against the list's `described_as`: one row per contact judged, with its verdict, probability and the reasons behind it (each naming the sale, interaction, note or field that decided it). Rows are ordered by contact id, newest contact first (`dir=asc` for oldest first); `contact_id` narrows the page to one contact. The `judged_rubric=segment:<list id>` filter of `GET /gallery/contacts` lists the contacts judged true with probability at least 0.6. `rubric` says how the description was read: `not_judged` (no judgments yet: an empty page), `readable` (with a summary) or `unreadable` (with the reason); it is null for a list without `described_as`, whose page is empty. A list of another gallery is 404.",
  auth: { scopes: ["contacts:read"] },
  pathIds: { id: "list" },
  list: rubricJudgmentList,
  request: {
    params: ContactListIdParams,
    query: z.strictObject({
      ...paginationQuery(rubricJudgmentList),
      contact_id: RubricJudgmentsQueryContact,
    }),
  },
  responses: {
    200: {
      description: "The list's rubric and a page of its verdicts.",
      content: { "application/json": { schema: RubricJudgmentList } },
    },
  },
});

export function registerContactListsJudgments(app: Router): void {
  app.openapi(route, async (c) => {
    const { contact_id, ...query } = c.req.valid("query");
    const text = await listRubricJudgmentsPage(
      serviceContext(c),
      c.req.valid("param").id,
      contact_id,
      { ...rubricJudgmentList, route: route.operationId },
      query,
    );
    return sendJson<z.infer<typeof RubricJudgmentList>, 200>(c, text, 200);
  });
}
