import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { judgments } from "../../db/schema";
import type { DisclosureJudgment, ReadinessJudgment } from "../../lib/engine/types";
import { newId } from "../../lib/ids";
import { ArtworkJudgments } from "../../lib/schemas/judgments";
import { call, callJson, createGallery, db, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { insertRow, upsertJudgmentSubject } from "../helpers/seed";
import { create } from "./helpers";

/** GET /gallery/artworks/{id}/judgments: readiness and disclosure with what they rest on. */

const NOTES =
  "Sheet lightly toned overall. Two small losses to the lower left corner, not affecting the image. Frame has scuffs.";

const readiness: ReadinessJudgment = {
  model: "readiness-rules@1",
  readiness: "thin",
  probability: 0.93,
  missing: ["dimensions", "provenance"],
  present: ["title", "artist", "image", "medium", "year", "price", "description"],
};

function phrase(text: string, source: string, effect: string, decisive: boolean) {
  const start = NOTES.indexOf(text);
  return { source, phrase: text, start, end: start + text.length, effect, decisive };
}

const disclosure: DisclosureJudgment = {
  model: "disclosure-rules@1",
  disclosure: true,
  probability: 0.97,
  evidence: [
    phrase("lightly toned", "condition_notes", "describes toning of the sheet", true),
    phrase("Two small losses", "condition_notes", "describes a loss", true),
    phrase("Frame has scuffs", "condition_notes", "the frame is not the work", false),
  ],
};

/** Writes a judgment row as the engine does: the value, and the judge's whole output as evidence. */
async function judge(
  g: TestGallery,
  artworkId: string,
  aspect: "readiness" | "disclosure",
  output: ReadinessJudgment | DisclosureJudgment,
  judgedAt = "2026-11-20T10:15:30.250Z",
): Promise<void> {
  const value = "readiness" in output ? output.readiness : output.disclosure;
  await db().execute(
    insertRow(judgments, {
      gallery_id: g.id,
      subject_kind: "artwork",
      subject_id: artworkId,
      aspect,
      value,
      probability: output.probability,
      model: output.model,
      evidence: output,
      input_hash: `h-${aspect}-${artworkId}`,
      judged_at: judgedAt,
    }),
  );
}

async function subject(g: TestGallery, artworkId: string, version: number, judgedVersion: number) {
  await db().execute(
    upsertJudgmentSubject({
      gallery_id: g.id,
      kind: "artwork",
      subject_id: artworkId,
      version,
      judged_version: judgedVersion,
    }),
  );
}

function explain(key: string, id: string) {
  return callJson(ArtworkJudgments, "GET", `/gallery/artworks/${id}/judgments`, { key });
}

describe("GET /gallery/artworks/{id}/judgments", () => {
  let g: TestGallery;
  let judged: string;

  beforeAll(async () => {
    g = await createGallery();
    judged = (await create(g, { title: "Study for a Harbour", condition_notes: NOTES })).id;
    await judge(g, judged, "readiness", readiness);
    await judge(g, judged, "disclosure", disclosure, "2026-11-21T08:00:00.000Z");
    await subject(g, judged, 3, 3);
  });

  it("shows readiness with what the work lacks, and disclosure with the deciding phrases at their offsets", async () => {
    const { status, body } = await explain(g.key, judged);
    expect(status).toBe(200);
    expect(body).toEqual({
      artwork_id: judged,
      readiness: {
        value: "thin",
        probability: 0.93,
        missing: ["dimensions", "provenance"],
        present: readiness.present,
        model: "readiness-rules@1",
        judged_at: "2026-11-20T10:15:30.250Z",
      },
      disclosure: {
        value: true,
        probability: 0.97,
        phrases: disclosure.evidence,
        model: "disclosure-rules@1",
        judged_at: "2026-11-21T08:00:00.000Z",
      },
      stale: false,
    });
    for (const p of body.disclosure!.phrases) expect(NOTES.slice(p.start, p.end)).toBe(p.phrase);
    // The judged values agree with what the artwork's own filters read.
    expect(body.disclosure!.phrases.filter((p) => !p.decisive).map((p) => p.phrase)).toEqual([
      "Frame has scuffs",
    ]);
  });

  it("says stale while an edit waits for the engine", async () => {
    const id = (await create(g, { title: "Edited since" })).id;
    await judge(g, id, "readiness", { ...readiness, readiness: "empty", missing: ["image"], present: [] });
    await subject(g, id, 5, 4);
    const { body } = await explain(g.key, id);
    expect(body.stale).toBe(true);
    expect(body.readiness?.value).toBe("empty");
    expect(body.disclosure).toBeNull();
  });

  it("an unjudged work answers null for each aspect, and stale: its creation waits for the engine", async () => {
    const id = (await create(g, { title: "Just catalogued" })).id;
    const { status, body } = await explain(g.key, id);
    expect(status).toBe(200);
    expect(body).toEqual({ artwork_id: id, readiness: null, disclosure: null, stale: true });
  });

  it("a judgment of a clean work: disclosure false with the negation it weighed", async () => {
    const notes = "No foxing, no tears.";
    const id = (await create(g, { title: "Clean sheet", condition_notes: notes })).id;
    await judge(g, id, "disclosure", {
      model: "disclosure-rules@1",
      disclosure: false,
      probability: 0.88,
      evidence: [
        {
          source: "condition_notes",
          phrase: "No foxing",
          start: 0,
          end: 9,
          effect: "negates foxing",
          decisive: false,
        },
      ],
    });
    const { body } = await explain(g.key, id);
    expect(body.disclosure).toMatchObject({ value: false, probability: 0.88 });
    expect(body.disclosure!.phrases[0]!.phrase).toBe(notes.slice(0, 9));
  });

  it("404 for another gallery's work and for an unknown one, alike; the judgments stay where they are", async () => {
    const other = await createGallery();
    const foreign = await call("GET", `/gallery/artworks/${judged}/judgments`, { key: other.key });
    const body = await expectProblem(foreign, 404, "not_found");
    expect(body.detail).toBe(`No artwork ${judged} in this gallery.`);
    await expectProblem(
      await call("GET", `/gallery/artworks/${newId("art")}/judgments`, { key: g.key }),
      404,
      "not_found",
    );
    // Another gallery's judgment rows with the same subject id are not read either.
    const theirs = (await create(other, { title: "Theirs" })).id;
    await db().execute(
      sql`insert into judgments (gallery_id, subject_kind, subject_id, aspect, value, probability, model, evidence, input_hash, judged_at)
        values (${g.id}, 'artwork', ${theirs}, 'readiness', '"ready"', 0.9, 'readiness-rules@1', '{}', 'x', now())`,
    );
    expect((await explain(other.key, theirs)).body.readiness).toBeNull();
  });

  it("400 for a malformed id", async () => {
    await expectProblem(
      await call("GET", "/gallery/artworks/not-an-id/judgments", { key: g.key }),
      400,
      "invalid_request",
      { field: "id", location: "path" },
    );
  });

  it("needs artworks:read (403 without it, 401 without a credential); a read-only key reads it", async () => {
    const noScope = await g.keyWith(["contacts:read"]);
    const refused = await expectProblem(
      await call("GET", `/gallery/artworks/${judged}/judgments`, { key: noScope }),
      403,
      "forbidden",
    );
    expect(refused.details).toHaveProperty("missing_scopes", ["artworks:read"]);
    await expectProblem(await call("GET", `/gallery/artworks/${judged}/judgments`), 401);
    const reader = await g.keyWith(["artworks:read"]);
    expect((await explain(reader, judged)).body.readiness?.value).toBe("thin");
  });
});
