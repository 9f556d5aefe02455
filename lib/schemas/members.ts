import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut } from "../time";

export const memberRoles = ["editor", "viewer"] as const;

const role = z.enum(memberRoles).openapi({
  description: "`editor` holds every scope; `viewer` holds only the `:read` scopes.",
});

/** A person who signs in to the gallery's own tools. Never the password hash. */
export const Member = z
  .object({
    id: z.string().openapi({ example: "mem_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    email: z.string().openapi({
      description: "The email address the member signs in with; unique across every gallery, ignoring case.",
    }),
    name: z.string().openapi({ description: "The member's name as the gallery's tools show it." }),
    role,
    disabled: z.boolean().openapi({
      description: "A disabled member cannot sign in, and every session it had is revoked.",
    }),
    disabled_at: TimestampOut.nullable().openapi({
      description: "When the member was disabled (UTC, milliseconds); null while the member may sign in.",
    }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Member");

export const MemberUpdate = z
  .strictObject({
    role,
    disabled: z.boolean().openapi({
      description:
        "true revokes every session of the member and refuses its sign-ins; false lets it sign in again (its revoked sessions stay revoked).",
    }),
  })
  .partial()
  .openapi("MemberUpdate");

export type MemberUpdateInput = z.infer<typeof MemberUpdate>;

export const MemberIdParams = z.strictObject({
  id: idString("mem").openapi({ param: { name: "id", in: "path" } }),
});
