import { z } from "@hono/zod-openapi";
import { allScopes } from "../scopes";
import { TimestampOut } from "../time";

export const SessionCreate = z
  .strictObject({
    email: z
      .string()
      .max(320)
      .regex(/^[^\s@]+@[^\s@]+$/, { message: "must be an email address" })
      .openapi({ example: "editor@gallery.example" }),
    password: z.string().min(1).max(1024),
  })
  .openapi("SessionCreate");

export const SessionMember = z
  .object({
    id: z.string().openapi({ example: "mem_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    email: z.string(),
    name: z.string(),
    role: z.enum(["editor", "viewer"]).openapi({
      description: "Editors hold every scope; viewers hold only the `:read` scopes.",
    }),
  })
  .openapi("SessionMember");

export const CreatedSession = z
  .object({
    id: z.string().openapi({ example: "ses_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    token: z.string().openapi({
      description:
        "The session token `gss_…`, shown once. Browsers use the `gallery_session` cookie set with this response; other clients send `Authorization: Bearer <token>`.",
    }),
    expires_at: TimestampOut,
    member: SessionMember,
    gallery_id: z.string(),
  })
  .openapi("CreatedSession");

export const CurrentSession = z
  .object({
    id: z.string().openapi({ example: "ses_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    created_at: TimestampOut,
    expires_at: TimestampOut,
    member: SessionMember,
    gallery: z.object({ id: z.string(), name: z.string(), livemode: z.boolean() }),
    scopes: z.array(z.enum(allScopes as [string, ...string[]])).openapi({
      description: "What this session may do, from the member's role.",
    }),
  })
  .openapi("CurrentSession");

export const SessionDeleted = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .openapi("SessionDeleted");
