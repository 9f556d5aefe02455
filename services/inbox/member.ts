import type { InboxView } from "../../db/queries/inbox";
import { type Env, inboundEmailDomain, publicBaseUrl } from "../../lib/env";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** What the inbox's representations are built with (db/queries/inbox.ts `InboxView`). */
export function inboxView(env: Pick<Env, "PUBLIC_BASE_URL" | "INBOUND_EMAIL_DOMAIN">): InboxView {
  return { origin: publicBaseUrl(env), inboundDomain: inboundEmailDomain(env) };
}

/** Why every inbox operation but ingest takes a member session only; the 403 a secret key gets says it. */
export const MEMBER_PRIVATE =
  "The inbox is member-private: a member reads and changes only their own threads, so API keys cannot.";

/**
 * The signed-in member the inbox belongs to. Session-only operations always have one (authentication refused
 * every other credential); the check keeps a future caller from reading every member's inbox by mistake.
 */
export function inboxOwner(ctx: ServiceContext): string {
  const memberId = ctx.principal.memberId;
  if (memberId === null) throw new ApiError("forbidden", MEMBER_PRIVATE);
  return memberId;
}
