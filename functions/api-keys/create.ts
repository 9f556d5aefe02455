import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { apiKeyJsonById, createApiKeyStatement } from "../../db/queries/api-keys";
import { nextTimestamp } from "../../db/queries/rows";
import type { Router } from "../../lib/app";
import { PUBLISHABLE_TOKEN_PREFIX, SECRET_KEY_PREFIX } from "../../lib/auth";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { REPLAYED_HEADER } from "../../lib/idempotency";
import { newId } from "../../lib/ids";
import { operation } from "../../lib/operation";
import { ApiError } from "../../lib/problem";
import { missingScopes, PUBLISHABLE_SCOPES } from "../../lib/scopes";
import { executeWrite } from "../../lib/write";
import { ApiKeyCreate, CreatedApiKey } from "./schemas";

/** Shown to the owner so they can recognise the key later: the type prefix and a few random characters. */
const DISPLAY_PREFIX_LENGTH = 12;

const route = operation({
  operationId: "createApiKey",
  method: "post",
  path: "/gallery/api-keys",
  tags: ["API keys"],
  summary: "Create an API key",
  description:
    "Mints a secret key (`gpk_…`) or a publishable token (`gpub_…`). The response carries the key in `secret`, once; only its SHA-256 is stored. A credential cannot grant scopes it does not hold (403, `details.ungrantable_scopes`). Emits `api_key.created`.",
  auth: { scopes: ["api_keys:create"] },
  idempotent: true,
  exampleBody: { name: "Website sync", scopes: ["artworks:read"] },
  replayOmits: ["secret"],
  request: {
    body: { required: true, content: { "application/json": { schema: ApiKeyCreate } } },
  },
  responses: {
    201: {
      description: "The created key, with its secret.",
      content: { "application/json": { schema: CreatedApiKey } },
    },
  },
});

export function registerApiKeysCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const principal = c.get("principal");
    const scopes = input.kind === "publishable" ? PUBLISHABLE_SCOPES : input.scopes!;
    const ungrantable = missingScopes(principal.scopes, scopes);
    if (ungrantable.length > 0) {
      throw new ApiError(
        "forbidden",
        `A credential cannot grant scopes it does not hold: ${ungrantable.join(", ")}.`,
        { ungrantable_scopes: ungrantable },
      );
    }
    const token = randomToken(input.kind === "secret" ? SECRET_KEY_PREFIX : PUBLISHABLE_TOKEN_PREFIX);
    const id = newId("key");
    const object = apiKeyJsonById(principal.galleryId, id);
    const key = {
      id,
      kind: input.kind,
      name: input.name,
      prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
      keyHash: await sha256Hex(token),
      scopes,
    };
    const response = await executeWrite(c, {
      statements: [createApiKeyStatement(principal.galleryId, key, nextTimestamp())],
      events: [
        {
          type: "api_key.created",
          resourceType: "api_key",
          resourceId: id,
          data: sql`jsonb_build_object('object', (${object}))`,
        },
      ],
      status: 201,
      // What is stored for replays (Postgres and KV) must not hold the secret, so it is added only below.
      body: sql`(${object}) || jsonb_build_object('secret', null::text)`,
    });
    if (response.headers.get(REPLAYED_HEADER) === "true") return response as never;
    const stored = (await response.json()) as z.infer<typeof CreatedApiKey>;
    c.header("Cache-Control", "no-store");
    return c.json({ ...stored, secret: token }, 201);
  });
}
