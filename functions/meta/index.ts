import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, type RouterOptions } from "../../lib/http/app";
import { ApiError, type ErrorCode, errorCodes, problemResponses } from "../../lib/problem";

const ErrorEntry = z
  .object({
    code: z.string(),
    status: z.number().int(),
    title: z.string(),
    retry: z.enum(["permanent", "transient", "after_delay"]),
    description: z.string(),
  })
  .openapi("ErrorCode");

function entry(code: ErrorCode) {
  return { code, ...errorCodes[code] };
}

/** Unauthenticated service routes: health and the error dictionary that problem `type` URLs point to. */
export function metaRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  app.openapi(
    createRoute({
      method: "get",
      path: "/health",
      operationId: "getHealth",
      security: [],
      tags: ["Meta"],
      summary: "Liveness",
      responses: {
        ...problemResponses,
        200: {
          description: "The Worker is up.",
          content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } },
        },
      },
    }),
    (c) => c.json({ status: "ok" as const }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/errors",
      operationId: "listErrorCodes",
      security: [],
      tags: ["Meta"],
      summary: "The error dictionary",
      responses: {
        ...problemResponses,
        200: {
          description: "Every error code.",
          content: { "application/json": { schema: z.object({ data: z.array(ErrorEntry) }) } },
        },
      },
    }),
    (c) => c.json({ data: (Object.keys(errorCodes) as ErrorCode[]).map(entry) }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/errors/{code}",
      operationId: "getErrorCode",
      security: [],
      tags: ["Meta"],
      summary: "One error code",
      request: {
        params: z.object({
          code: z
            .string()
            .max(64)
            .openapi({ param: { name: "code", in: "path" } }),
        }),
      },
      responses: {
        ...problemResponses,
        200: {
          description: "The error code's entry.",
          content: { "application/json": { schema: ErrorEntry } },
        },
      },
    }),
    (c) => {
      const { code } = c.req.valid("param");
      if (!(code in errorCodes)) throw new ApiError("not_found", `No error code ${code}.`);
      return c.json(entry(code as ErrorCode), 200);
    },
  );
  return app;
}
