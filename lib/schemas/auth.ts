import { z } from "@hono/zod-openapi";
import { describeRefFields } from "../openapi-references";
import { allScopes } from "../scopes";
import { TimestampOut } from "../time";

const sessionIdText = "The session's id (`ses_…`): prefixed and time-ordered; unique, never reused.";
const expiresText =
  "When the session stops authenticating (UTC): 30 days after sign-in, not extended by use. Signing out, or disabling the member, ends it sooner.";
const memberText = "The signed-in member.";

export const SessionCreate = z
  .strictObject({
    email: z
      .string()
      .max(320)
      .regex(/^[^\s@]+@[^\s@]+$/, { message: "must be an email address" })
      .openapi({
        example: "editor@gallery.example",
        description: "The member's email address, matched ignoring case; it names the member's gallery too.",
      }),
    password: z.string().min(1).max(1024).openapi({ description: "The member's password." }),
  })
  .openapi("SessionCreate");

export const SessionMember = z
  .object({
    id: z.string().openapi({
      example: "mem_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The member's id (`mem_…`), as GET /gallery/members lists it.",
    }),
    email: z.string().openapi({ description: "The email address the member signs in with." }),
    name: z.string().openapi({ description: "The member's name as the gallery's tools show it." }),
    role: z.enum(["editor", "viewer"]).openapi({
      description: "Editors hold every scope; viewers hold only the `:read` scopes.",
    }),
  })
  .openapi("SessionMember");

export const CreatedSession = z
  .object({
    id: z.string().openapi({ example: "ses_01jd4xk9v2c7h8m3n5p6q7r8s9", description: sessionIdText }),
    token: z.string().openapi({
      description:
        "The session token `gss_…`, shown once. Browsers use the `gallery_session` cookie set with this response; other clients send `Authorization: Bearer <token>`.",
    }),
    expires_at: TimestampOut.openapi({ description: expiresText }),
    member: SessionMember,
    gallery_id: z.string().openapi({ description: "The id (`gal_…`) of the gallery the member belongs to." }),
  })
  .openapi("CreatedSession");

export const CurrentSession = z
  .object({
    id: z.string().openapi({ example: "ses_01jd4xk9v2c7h8m3n5p6q7r8s9", description: sessionIdText }),
    created_at: TimestampOut.openapi({ description: "When the member signed in (UTC, milliseconds)." }),
    expires_at: TimestampOut.openapi({ description: expiresText }),
    member: SessionMember,
    gallery: z
      .object({
        id: z.string().openapi({ description: "The gallery's id (`gal_…`)." }),
        name: z.string().openapi({ description: "The gallery's name." }),
        livemode: z.boolean(),
      })
      .openapi({
        description: "The gallery the member belongs to, whose data the session reads and writes.",
      }),
    scopes: z.array(z.enum(allScopes as [string, ...string[]])).openapi({
      description: "What this session may do, from the member's role.",
    }),
  })
  .openapi("CurrentSession");

export const SessionDeleted = z
  .object({
    id: z.string().openapi({ description: "The id (`ses_…`) of the session that was signed out." }),
    deleted: z.literal(true).openapi({ description: "Always true: the session no longer authenticates." }),
  })
  .openapi("SessionDeleted");

describeRefFields("CreatedSession", { member: memberText });
describeRefFields("CurrentSession", { member: memberText });
