import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { CreatedSession } from "../../lib/schemas/auth";
import { PrivateNote } from "../../lib/schemas/private-notes";
import { newContact } from "../contact-lists/crm-rows";
import { call, createGallery, db, json, readJson, type TestGallery } from "../helpers/gallery";
import { createMember, type TestMember } from "../helpers/members";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";

/**
 * Private notes: editors (editor sessions, keys that may write) read them; viewers (viewer sessions, read-only
 * keys) read an empty set. The event of a new note leaves its confidential body out.
 */

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NotePage = pageOf(PrivateNote);

async function sessionOf(member: TestMember): Promise<string> {
  const response = await call("POST", "/auth/sessions", {
    body: { email: member.email, password: member.password },
  });
  const body = await readJson(CreatedSession, response);
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.token;
}

const notesPath = (contactId: string) => `/gallery/contacts/${contactId}/private-notes`;

async function addNote(key: string, contactId: string, body: string, headers: Record<string, string> = {}) {
  const response = await call("POST", notesPath(contactId), { key, body: { body }, headers });
  const note = await readJson(PrivateNote, response);
  expect(response.status, JSON.stringify(note)).toBe(201);
  return { note, response };
}

async function notes(key: string, contactId: string, query = "") {
  const response = await call("GET", `${notesPath(contactId)}${query}`, { key });
  const page = await readJson(NotePage, response);
  expect(response.status, JSON.stringify(page)).toBe(200);
  return page;
}

async function noteEvents(galleryId: string) {
  const result = await db().execute<{
    resource_id: string;
    resource_type: string;
    data: Record<string, unknown>;
  }>(
    sql`select resource_id, resource_type, data from domain_events
      where gallery_id = ${galleryId} and type = 'private_note.created' order by created_at, id`,
  );
  return result.rows;
}

describe("private notes", () => {
  let g: TestGallery;
  let contactId: string;
  let editor: TestMember;
  let editorSession: string;
  let viewerSession: string;

  beforeAll(async () => {
    g = await createGallery();
    contactId = await newContact(g, { name: "Discreet collector" });
    editor = await createMember(g.id, "editor");
    editorSession = await sessionOf(editor);
    viewerSession = await sessionOf(await createMember(g.id, "viewer"));
  });

  it("adds a note as written, by the session's member, and emits private_note.created without the body", async () => {
    const text = "  Will buy the Agnes Martin if the price holds.\nDo not mention the divorce.  ";
    const { note } = await addNote(editorSession, contactId, text);
    expect(note).toEqual({
      id: expect.stringMatching(/^note_[0-9a-z]{26}$/),
      contact_id: contactId,
      body: text,
      author_id: editor.id,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: note.created_at,
    });
    const event = (await noteEvents(g.id)).find((e) => e.resource_id === note.id);
    expect(event?.resource_type).toBe("private_note");
    expect(event?.data).toEqual({
      object: {
        id: note.id,
        contact_id: contactId,
        author_id: editor.id,
        created_at: note.created_at,
        updated_at: note.updated_at,
      },
    });
    // Nor does the event API show it, to any key that reads events and contacts.
    const eventsKey = await g.keyWith(["events:read", "contacts:read"]);
    const listed = await call("GET", "/gallery/events?type=private_note.created", { key: eventsKey });
    const listedText = await listed.text();
    expect(listed.status).toBe(200);
    expect(listedText).toContain(note.id);
    expect(listedText).not.toContain("Agnes Martin");
  });

  it("has no author when an API key writes it", async () => {
    const { note } = await addNote(g.key, contactId, "Written by the integration.");
    expect(note.author_id).toBeNull();
  });

  it("lists newest first for editors, in pages, and nothing for viewers", async () => {
    const c = await newContact(g, { name: "Paged" });
    const made: string[] = [];
    for (const text of ["one", "two", "three"]) made.push((await addNote(g.key, c, text)).note.id);
    const newestFirst = [...made].reverse();

    const first = await notes(editorSession, c, "?limit=2");
    expect(first.data.map((n) => n.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.data.map((n) => n.body)).toEqual(["three", "two"]);
    const second = await notes(editorSession, c, `?limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(second).toEqual({
      data: [expect.objectContaining({ id: made[0], body: "one" })],
      next_cursor: null,
    });

    // A key that may change anything is an editor, whatever else it lacks.
    const readWrite = await g.keyWith(["contacts:read", "contacts:update"]);
    expect((await notes(readWrite, c)).data.map((n) => n.id)).toEqual(newestFirst);
    expect((await notes(g.key, c)).data.map((n) => n.id)).toEqual(newestFirst);

    // Viewers: a viewer session, and a key whose scopes are all `:read`.
    expect(await notes(viewerSession, c)).toEqual({ data: [], next_cursor: null });
    const readOnly = await g.keyWith(["contacts:read", "sales:read", "events:read"]);
    expect(await notes(readOnly, c)).toEqual({ data: [], next_cursor: null });
    expect(await notes(readOnly, c, "?limit=1")).toEqual({ data: [], next_cursor: null });
  });

  it("refuses a viewer's session and a read-only key a write (403), and asks for a credential (401)", async () => {
    const viewer = await expectProblem(
      await call("POST", notesPath(contactId), { key: viewerSession, body: { body: "Nope" } }),
      403,
      "forbidden",
    );
    expect(viewer.details).toMatchObject({ missing_scopes: ["contacts:create"] });
    const readOnly = await g.keyWith(["contacts:read"]);
    await expectProblem(
      await call("POST", notesPath(contactId), { key: readOnly, body: { body: "Nope" } }),
      403,
    );
    const noRead = await g.keyWith(["contacts:create"]);
    await expectProblem(await call("GET", notesPath(contactId), { key: noRead }), 403, "forbidden");
    await expectProblem(await call("GET", notesPath(contactId)), 401, "unauthenticated");
    await expectProblem(
      await call("POST", notesPath(contactId), { body: { body: "x" } }),
      401,
      "unauthenticated",
    );
  });

  it("answers 404 for another gallery's contact, to editors and viewers alike", async () => {
    const elsewhere = await createGallery();
    const theirs = await newContact(elsewhere, { name: "Not ours" });
    await addNote(elsewhere.key, theirs, "Their secret.");
    await expectProblem(await call("GET", notesPath(theirs), { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", notesPath(theirs), { key: viewerSession }), 404, "not_found");
    await expectProblem(
      await call("POST", notesPath(theirs), { key: editorSession, body: { body: "Intrusion" } }),
      404,
      "not_found",
    );
    const count = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from private_notes where contact_id = ${theirs}`,
    );
    expect(count.rows[0]!.n).toBe(1);
  });

  it.each([
    ["a missing body", {}, "body"],
    ["an empty body", { body: "" }, "body"],
    ["a blank body", { body: " \n\t " }, "body"],
    ["a body over 20,000 characters", { body: "x".repeat(20_001) }, "body"],
    ["a body that is not a string", { body: 42 }, "body"],
    ["an unknown field", { body: "ok", author_id: "mem_01jd4xk9v2c7h8m3n5p6q7r8s9" }, "author_id"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    await expectProblem(
      await call("POST", notesPath(contactId), { key: g.key, body }),
      400,
      "invalid_request",
      {
        field,
        location: "body",
      },
    );
  });

  it("accepts exactly 20,000 characters", async () => {
    const { note } = await addNote(g.key, contactId, "y".repeat(20_000));
    expect(note.body).toHaveLength(20_000);
  });

  it("replays a retried create with the same Idempotency-Key: one note, one event", async () => {
    const c = await newContact(g, { name: "Retried" });
    const headers = { "idempotency-key": `note-${crypto.randomUUID()}` };
    const first = await addNote(g.key, c, "Only once.", headers);
    const again = await call("POST", notesPath(c), { key: g.key, body: { body: "Only once." }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual(first.note);
    expect((await notes(g.key, c)).data).toHaveLength(1);
    expect((await noteEvents(g.id)).filter((e) => e.resource_id === first.note.id)).toHaveLength(1);
  });
});
