import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { allScopes, isKnownScope, PUBLISHABLE_SCOPES } from "../scopes";
import { TimestampOut } from "../time";

export const apiKeyKinds = ["secret", "publishable"] as const;

/** A publishable token is browser-safe: it may read public viewing rooms and nothing else. */

const scopeDoc = { type: "string" as const, enum: [...allScopes] };

const nameText = "A label to recognise the key by (`Website sync`); not unique.";
const kindText =
  "`secret` (`gpk_…`, for servers: holds the scopes it was given) or `publishable` (`gpub_…`, browser-safe: reads public viewing rooms only).";

export const ApiKey = z
  .object({
    id: z.string().openapi({ example: "key_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    name: z.string().openapi({ description: nameText }),
    kind: z.enum(apiKeyKinds).openapi({ description: kindText }),
    prefix: z.string().openapi({
      description: "The first characters of the key, to recognise it; the rest is never shown again.",
      example: "gpk_3q9XbT0a",
    }),
    scopes: z.array(z.string().openapi(scopeDoc)).openapi({
      description:
        "What the key may do, as `<resource>:<action>` scopes; a publishable token holds exactly `viewing_rooms:read`.",
    }),
    last_used_at: TimestampOut.nullable().openapi({
      description:
        "When the key last authenticated a request, to the hour (a use within an hour of the recorded one is not written again); null for a key never used.",
    }),
    revoked_at: TimestampOut.nullable().openapi({
      description: "When the key was revoked; a revoked key no longer authenticates.",
    }),
    created_at: TimestampOut,
  })
  .openapi("ApiKey");

export const CreatedApiKey = ApiKey.extend({
  secret: z.string().nullable().openapi({
    description:
      "The key itself, shown in this response only: store it now. Only its SHA-256 is kept, so an idempotent replay of this response (`Idempotent-Replayed: true`) carries null; revoke that key and create another if the secret was lost.",
  }),
}).openapi("CreatedApiKey");

export const ApiKeyCreate = z
  .strictObject({
    name: z.string().min(1).max(100).openapi({ example: "Website sync", description: nameText }),
    kind: z
      .enum(apiKeyKinds)
      .default("secret")
      .openapi({ description: `${kindText} \`secret\` by default.` }),
    scopes: z
      .array(z.string().max(64).openapi(scopeDoc))
      .min(1)
      .max(allScopes.length)
      .superRefine((scopes, ctx) => {
        scopes.forEach((scope, i) => {
          if (!isKnownScope(scope)) {
            ctx.addIssue({ code: "custom", path: [i], message: `names an unknown scope \`${scope}\`` });
          } else if (scopes.indexOf(scope) !== i) {
            ctx.addIssue({ code: "custom", path: [i], message: `repeats the scope \`${scope}\`` });
          }
        });
      })
      .optional()
      .openapi({
        description:
          "Required for a secret key; a new key can only hold scopes the calling credential holds. A publishable token always holds exactly `viewing_rooms:read` (omit the field or send exactly that).",
        example: ["artworks:read", "artists:read"],
      }),
  })
  .superRefine((body, ctx) => {
    if (body.kind === "secret" && body.scopes === undefined) {
      ctx.addIssue({ code: "custom", path: ["scopes"], message: "is required for a secret key" });
    }
    if (
      body.kind === "publishable" &&
      body.scopes !== undefined &&
      (body.scopes.length !== PUBLISHABLE_SCOPES.length ||
        body.scopes.some((s) => !PUBLISHABLE_SCOPES.includes(s)))
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["scopes"],
        message: `of a publishable token must be exactly ${PUBLISHABLE_SCOPES.map((s) => `\`${s}\``).join(", ")}`,
      });
    }
  })
  .openapi("ApiKeyCreate");

export const ApiKeyIdParams = z.strictObject({
  id: idString("key").openapi({ param: { name: "id", in: "path" } }),
});
export type ApiKeyCreateInput = z.infer<typeof ApiKeyCreate>;
