import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { CurrentSession } from "../../lib/schemas/auth";
import { currentSession } from "../../services/auth/sessions";

const route = operation({
  operationId: "getCurrentSession",
  method: "get",
  path: "/auth/sessions/current",
  tags: ["Auth"],
  summary: "Retrieve the current session",
  description: "Who is signed in: the member, their gallery and the scopes their role grants.",
  auth: { scopes: [], credentials: ["session"] },
  request: { query: z.strictObject({}) },
  responses: {
    200: { description: "The session.", content: { "application/json": { schema: CurrentSession } } },
  },
});

export function registerAuthGetSession(app: Router): void {
  app.openapi(route, async (c) => c.json(await currentSession(serviceContext(c)), 200));
}
