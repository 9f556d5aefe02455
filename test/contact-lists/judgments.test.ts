import { beforeAll, describe, expect, it } from "vitest";
import { PRIVATE_NOTE_LABEL } from "../../db/queries/judgments";
import { judgments, rubricJudgments } from "../../db/schema";
import type { RubricReading, RubricVerdict } from "../../lib/engine/types";
import { newId } from "../../lib/ids";
import { RubricJudgmentList } from "../../lib/schemas/judgments";
import { call, callJson, createGallery, db, type TestGallery } from "../helpers/gallery";
import { walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { insertRow, upsertJudgmentSubject } from "../helpers/seed";
import { createdList, newContact } from "./crm-rows";

/** GET /gallery/contact-lists/{id}/judgments: how a list's described_as judged contacts, and how it was read. */

type Row = (typeof RubricJudgmentList._output)["data"][number];

const DESCRIBED = "Collectors of post-war works on paper who bought in the last 2 years";

const reading: RubricReading = {
  readable: true,
  model: "rubric-rules@1",
  criteria: { medium: "works on paper", period: "post-war", purchased_within_days: 730 },
  summary: "Bought a work on paper made 1945–1975 since 2024-11-27",
};

/** The list's reading as the engine stores it: value {readable}, the whole RubricReading as evidence. */
async function read(g: TestGallery, listId: string, output: RubricReading): Promise<void> {
  await db().execute(
    insertRow(judgments, {
      gallery_id: g.id,
      subject_kind: "contact_list",
      subject_id: listId,
      aspect: "rubric",
      value: { readable: output.readable },
      probability: null,
      model: output.model,
      evidence: output,
      input_hash: `h-${listId}`,
      judged_at: "2026-11-25T17:00:00.000Z",
    }),
  );
  // As the engine leaves it: the list's version judged.
  await db().execute(
    upsertJudgmentSubject({
      gallery_id: g.id,
      kind: "contact_list",
      subject_id: listId,
      version: 1,
      judged_version: 1,
    }),
  );
}

/** One contact's verdict as the engine stores it, in rubric_judgments under `segment:<list id>`. */
async function verdict(g: TestGallery, listId: string, contactId: string, v: RubricVerdict): Promise<void> {
  await db().execute(
    insertRow(rubricJudgments, {
      gallery_id: g.id,
      rubric_key: `segment:${listId}`,
      contact_id: contactId,
      verdict: v.verdict,
      probability: v.probability,
      model: v.model,
      reasons: v.reasons,
      judged_at: "2026-11-25T17:00:01.500Z",
    }),
  );
}

function verdictOf(contactId: string, n: number): RubricVerdict {
  const holds = n % 2 === 0;
  return {
    model: "rubric-rules@1",
    verdict: holds,
    probability: holds ? 0.9 - n / 100 : 0.2 + n / 100,
    reasons: [
      {
        criterion: "bought a work on paper",
        holds,
        kind: "sale",
        id: `sal_${contactId.slice(4)}`,
        label: holds ? "Bought Untitled (Ochre), etching, 1962" : "Bought an oil on canvas, 2019",
        at: "2025-03-02T12:00:00.000Z",
      },
      {
        criterion: "in the last 2 years",
        holds: true,
        kind: "field",
        id: null,
        label: "Sale date",
        at: null,
      },
    ],
  };
}

function path(listId: string, query = ""): string {
  return `/gallery/contact-lists/${listId}/judgments${query ? `?${query}` : ""}`;
}

function explain(key: string, listId: string, query = "") {
  return callJson(RubricJudgmentList, "GET", path(listId, query), { key });
}

describe("GET /gallery/contact-lists/{id}/judgments", () => {
  let g: TestGallery;
  let listId: string;
  const contacts: string[] = [];

  beforeAll(async () => {
    g = await createGallery();
    listId = (await createdList(g, { title: "Paper collectors", dynamic_query: { described_as: DESCRIBED } }))
      .id;
    for (let n = 0; n < 5; n++) {
      const id = await newContact(g);
      contacts.push(id);
      await verdict(g, listId, id, verdictOf(id, n));
    }
    await read(g, listId, reading);
  });

  it("answers the rubric as read and every verdict with its reasons, newest contact first", async () => {
    const { status, body } = await explain(g.key, listId);
    expect(status).toBe(200);
    expect(body.rubric).toEqual({
      described_as: DESCRIBED,
      state: "readable",
      reason: null,
      summary: reading.summary,
      model: "rubric-rules@1",
      judged_at: "2026-11-25T17:00:00.000Z",
      stale: false,
    });
    expect(body.next_cursor).toBeNull();
    expect(body.data.map((r) => r.contact_id)).toEqual([...contacts].sort().reverse());
    const first = body.data.find((r) => r.contact_id === contacts[0])!;
    const v = verdictOf(contacts[0]!, 0);
    expect(first).toEqual({
      contact_id: contacts[0],
      verdict: true,
      probability: v.probability,
      reasons: v.reasons,
      model: "rubric-rules@1",
      judged_at: "2026-11-25T17:00:01.500Z",
    });
    expect(body.data.filter((r) => r.verdict).length).toBe(3);
  });

  it("walks every verdict exactly once across pages, in both directions", async () => {
    for (const dir of ["desc", "asc"] as const) {
      const pages = await walkPages<Row>(g.key, path(listId), { limit: "2", dir });
      expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
      const expected = [...contacts].sort();
      expect(pages.flatMap((p) => p.data.map((r) => r.contact_id))).toEqual(
        dir === "desc" ? expected.reverse() : expected,
      );
    }
    // Every page carries the rubric.
    const second = await walkPages<Row>(g.key, path(listId), { limit: "4" });
    expect(second.map((p) => (p as unknown as { rubric: { state: string } }).rubric.state)).toEqual([
      "readable",
      "readable",
    ]);
  });

  it("contact_id narrows to one contact's verdict; a contact without one answers an empty page", async () => {
    const { body } = await explain(g.key, listId, `contact_id=${contacts[3]}`);
    expect(body.data.map((r) => r.contact_id)).toEqual([contacts[3]]);
    expect(body.data[0]!.verdict).toBe(false);
    expect(body.next_cursor).toBeNull();
    const unjudged = await newContact(g);
    const empty = await explain(g.key, listId, `contact_id=${unjudged}`);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.rubric?.state).toBe("readable");
  });

  it("400 for a malformed contact_id, a forged cursor, a cursor of the other direction and a bad limit", async () => {
    await expectProblem(
      await call("GET", path(listId, "contact_id=not-a-contact"), { key: g.key }),
      400,
      "invalid_request",
      { field: "contact_id" },
    );
    await expectProblem(
      await call("GET", path(listId, "cursor=forged-cursor"), { key: g.key }),
      400,
      "invalid_request",
      { field: "cursor" },
    );
    const { body } = await explain(g.key, listId, "limit=2");
    const other = await call("GET", path(listId, `dir=asc&cursor=${body.next_cursor}`), { key: g.key });
    await expectProblem(other, 400, "invalid_request", { field: "cursor" });
    await expectProblem(await call("GET", path(listId, "limit=0"), { key: g.key }), 400, "invalid_request", {
      field: "limit",
    });
    await expectProblem(await call("GET", path(listId, "sort=probability"), { key: g.key }), 400);
    // A cursor of another gallery is not valid here.
    const other2 = await createGallery();
    const theirs = await createdList(other2, { title: "Theirs", dynamic_query: { described_as: DESCRIBED } });
    await expectProblem(
      await call("GET", path(theirs.id, `cursor=${body.next_cursor}`), { key: other2.key }),
      400,
      "invalid_request",
    );
  });

  it("a list whose description the engine has not read yet: state not_judged and an empty page", async () => {
    const list = await createdList(g, {
      title: "New",
      dynamic_query: { described_as: "Architects in Lisbon" },
    });
    await db().execute(
      upsertJudgmentSubject({
        gallery_id: g.id,
        kind: "contact_list",
        subject_id: list.id,
        version: 1,
        judged_version: 0,
      }),
    );
    const { status, body } = await explain(g.key, list.id);
    expect(status).toBe(200);
    expect(body).toEqual({
      rubric: {
        described_as: "Architects in Lisbon",
        state: "not_judged",
        reason: null,
        summary: null,
        model: null,
        judged_at: null,
        stale: true,
      },
      data: [],
      next_cursor: null,
    });
  });

  it("a description that could not be read: state unreadable with the reason", async () => {
    const list = await createdList(g, { title: "Vague", dynamic_query: { described_as: "the good ones" } });
    await read(g, list.id, {
      readable: false,
      model: "rubric-rules@1",
      reason: "No criterion found: the description names no medium, artist, place, spend or activity.",
    });
    const { body } = await explain(g.key, list.id);
    expect(body.rubric).toMatchObject({
      state: "unreadable",
      reason: "No criterion found: the description names no medium, artist, place, spend or activity.",
      summary: null,
      model: "rubric-rules@1",
    });
    expect(body.data).toEqual([]);
  });

  it("a list without described_as answers rubric null and an empty page", async () => {
    const fixed = await createdList(g, { title: "Static" });
    const { status, body } = await explain(g.key, fixed.id);
    expect(status).toBe(200);
    expect(body).toEqual({ rubric: null, data: [], next_cursor: null });
    const filtered = await createdList(g, { title: "Filtered", dynamic_query: { type: "collector" } });
    // Verdicts left under its key (a description since removed) are not shown as its judgments.
    await verdict(g, filtered.id, contacts[0]!, verdictOf(contacts[0]!, 0));
    expect((await explain(g.key, filtered.id)).body).toEqual({ rubric: null, data: [], next_cursor: null });
  });

  it("404 for another gallery's list and for an unknown one; 400 for a malformed id", async () => {
    const other = await createGallery();
    const foreign = await expectProblem(
      await call("GET", path(listId), { key: other.key }),
      404,
      "not_found",
    );
    expect(foreign.detail).toBe(`No contact list ${listId} in this gallery.`);
    await expectProblem(await call("GET", path(newId("list")), { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", path("nope"), { key: g.key }), 400, "invalid_request", {
      field: "id",
      location: "path",
    });
  });

  it("needs contacts:read (403 without it, 401 without a credential)", async () => {
    const artworksOnly = await g.keyWith(["artworks:read"]);
    const refused = await expectProblem(
      await call("GET", path(listId), { key: artworksOnly }),
      403,
      "forbidden",
    );
    expect(refused.details).toHaveProperty("missing_scopes", ["contacts:read"]);
    await expectProblem(await call("GET", path(listId)), 401);
    const reader = await g.keyWith(["contacts:read"]);
    expect((await explain(reader, listId)).body.data).toHaveLength(5);
  });
  it("a reason resting on a private note shows its words to an editor only, as the notes themselves do", async () => {
    const own = await createGallery();
    const list = (
      await createdList(own, {
        title: "Minimalists",
        dynamic_query: { described_as: "interested in minimalism" },
      })
    ).id;
    const contact = await newContact(own);
    const words = "Confided she is selling her Agnes Martin to fund a divorce; keen on minimalism";
    await verdict(own, list, contact, {
      model: "rubric-rules@1",
      verdict: true,
      probability: 0.88,
      reasons: [
        {
          criterion: "interested in minimalism",
          holds: true,
          kind: "private_note",
          id: "pnote_1",
          label: `"${words}"`,
          at: null,
        },
        {
          criterion: "interested in minimalism",
          holds: true,
          kind: "note",
          id: contact,
          label: '"Minimal art"',
          at: null,
        },
      ],
    });
    const editor = (await explain(own.key, list)).body.data[0]?.reasons ?? [];
    expect(editor[0]?.label).toContain(words);
    const viewer = (await explain(await own.keyWith(["contacts:read"]), list)).body.data[0]?.reasons ?? [];
    expect(viewer.map((r) => r.label)).toEqual([PRIVATE_NOTE_LABEL, '"Minimal art"']);
    expect(viewer[0]).toMatchObject({ kind: "private_note", id: "pnote_1", holds: true });
  });
});
