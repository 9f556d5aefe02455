import type { z } from "@hono/zod-openapi";
import { expect } from "vitest";
import { Contact } from "../../lib/schemas/contacts";
import { create } from "../artworks/helpers";
import { call, readJson, type TestGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";

/**
 * Helpers shared by the suites of a contact's activity (interactions, engagement events, tasks) and of sales:
 * contacts and artworks are made through the API, member sessions by signing in.
 */

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export type ContactBody = z.infer<typeof Contact>;

/** A contact of `g`, made through the API; returns its id. */
export async function newContact(g: TestGallery, name = "Ada Lovelace"): Promise<string> {
  const response = await call("POST", "/gallery/contacts", { key: g.key, body: { name } });
  const body = (await response.json()) as { id: string };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

/** The contact as GET /gallery/contacts/{id} shows it (its last interaction among its fields). */
export async function getContact(g: TestGallery, id: string): Promise<ContactBody> {
  const response = await call("GET", `/gallery/contacts/${id}`, { key: g.key });
  const body = await readJson(Contact, response);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** An artwork of `g`, made through the API; returns its id. */
export async function newArtwork(g: TestGallery, title = "Study"): Promise<string> {
  return (await create(g, { title })).id;
}

/** A member of `g` with this role, signed in: its id and session token. */
export async function memberSession(
  g: TestGallery,
  role: "editor" | "viewer" = "editor",
): Promise<{ memberId: string; token: string }> {
  const member = await createMember(g.id, role);
  const response = await call("POST", "/auth/sessions", {
    body: { email: member.email, password: member.password },
  });
  const body = (await response.json()) as { token: string };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return { memberId: member.id, token: body.token };
}

/** An instant `minutes` from now, as the API prints timestamps. */
export function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}
