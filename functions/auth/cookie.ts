import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { SESSION_COOKIE } from "../../http/auth";
import type { AppEnv } from "../../lib/env";

/** Scoped to the API's own path, never readable by scripts, sent on top-level navigations only. */
const cookieOptions = { path: "/v1", httpOnly: true, secure: true, sameSite: "Lax" } as const;

export function setSessionCookie(c: Context<AppEnv>, token: string, maxAgeSeconds: number): void {
  setCookie(c, SESSION_COOKIE, token, { ...cookieOptions, maxAge: maxAgeSeconds });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, cookieOptions);
}
