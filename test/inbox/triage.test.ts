import { beforeAll, describe, expect, it } from "vitest";
import { judgments } from "../../db/schema";
import type { TriageJudgment } from "../../lib/engine/types";
import { newId } from "../../lib/ids";
import { ThreadTriage } from "../../lib/schemas/judgments";
import { call, callJson, createGallery, db, type SignedInMember, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { insertRow, upsertJudgmentSubject } from "../helpers/seed";
import {
  type ConnectionBody,
  deliver,
  emailConnection,
  expectMemberPrivate,
  insertConnection,
  type MessageBody,
  member,
  setThreadColumns,
  THREADS,
} from "./helpers";

/** GET /gallery/inbox/threads/{id}/triage: the owner's explanation of a thread's triage. */

const BODY =
  "Hi — following up on my email from Tuesday. We'd like to go ahead with the Mendes diptych at the quoted price, can you hold it until Friday? Please confirm today.";

function at(text: string, effect: string, decisive = true) {
  const start = BODY.indexOf(text);
  return { source: "message", phrase: text, start, end: start + text.length, effect, decisive };
}

function triageOf(): TriageJudgment {
  return {
    model: "triage-rules@1",
    intent: "purchase_inquiry",
    intentProbability: 0.81,
    intentDistribution: {
      purchase_inquiry: 0.81,
      price_request: 0.06,
      availability: 0.05,
      logistics: 0.01,
      consignment: 0.01,
      press: 0.01,
      event_rsvp: 0.01,
      invoice_payment: 0.02,
      spam: 0.01,
      other: 0.01,
    },
    urgency: "today",
    urgencyProbability: 0.7,
    urgencyDistribution: { now: 0.1, today: 0.7, this_week: 0.15, later: 0.05 },
    expectsReply: 0.95,
    escalating: 0.62,
    evidence: [
      at("like to go ahead with the Mendes diptych", "commits to buying a named work"),
      at("can you hold it until Friday?", "asks for a hold"),
      at("following up on my email from Tuesday", "chases an unanswered message"),
      at("Please confirm today", "asks for an answer today"),
    ],
    signals: ["second inbound message without a reply", "sent on email at 09:30"],
  };
}

/** Writes the triage row as the engine does: the intent as value, the judge's output plus the judged message. */
async function judge(g: TestGallery, threadId: string, messageId: string, output: TriageJudgment) {
  await db().execute(
    insertRow(judgments, {
      gallery_id: g.id,
      subject_kind: "inbox_thread",
      subject_id: threadId,
      aspect: "triage",
      value: output.intent,
      probability: output.intentProbability,
      model: output.model,
      evidence: { ...output, message_id: messageId },
      input_hash: `h-${threadId}`,
      judged_at: "2026-11-26T09:31:02.004Z",
    }),
  );
}

function explain(token: string, id: string) {
  return callJson(ThreadTriage, "GET", `${THREADS}/${id}/triage`, { key: token });
}

describe("GET /gallery/inbox/threads/{id}/triage", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let bea: SignedInMember;
  let conn: ConnectionBody;
  let message: MessageBody;

  beforeAll(async () => {
    g = await createGallery();
    [ada, bea] = [await member(g), await member(g)];
    conn = await emailConnection(ada.token);
    message = await deliver(g.key, conn.id, { subject: "Mendes diptych", body: BODY });
    await judge(g, message.thread_id, message.id, triageOf());
    await db().execute(
      upsertJudgmentSubject({
        gallery_id: g.id,
        kind: "inbox_thread",
        subject_id: message.thread_id,
        version: 2,
        judged_version: 2,
      }),
    );
  });

  it("shows the judged message, both distributions, beliefs, the deciding phrases and the signals", async () => {
    const { status, body } = await explain(ada.token, message.thread_id);
    expect(status).toBe(200);
    const t = triageOf();
    expect(body).toEqual({
      thread_id: message.thread_id,
      corrected_intent: null,
      triage: {
        message_id: message.id,
        intent: "purchase_inquiry",
        intent_probability: 0.81,
        intent_distribution: t.intentDistribution,
        urgency: "today",
        urgency_probability: 0.7,
        urgency_distribution: t.urgencyDistribution,
        expects_reply: 0.95,
        escalating: 0.62,
        phrases: t.evidence,
        signals: t.signals,
        model: "triage-rules@1",
        judged_at: "2026-11-26T09:31:02.004Z",
      },
      stale: false,
    });
    // Offsets index the judged message's body as stored.
    const stored = await call("GET", `${THREADS}/${message.thread_id}/messages`, { key: ada.token });
    const [judged] = ((await stored.json()) as { data: { id: string; body: string }[] }).data;
    expect(judged!.id).toBe(message.id);
    for (const p of body.triage!.phrases) expect(judged!.body.slice(p.start, p.end)).toBe(p.phrase);
  });

  it("keeps a member's corrected intent beside the engine's, and says stale while a new message waits", async () => {
    const other = await deliver(g.key, conn.id, { body: "Can you send the invoice?", subject: "Invoice" });
    await judge(g, other.thread_id, other.id, { ...triageOf(), intent: "price_request", evidence: [] });
    await setThreadColumns(other.thread_id, { triage_corrected_intent: "invoice_payment" });
    await db().execute(
      upsertJudgmentSubject({
        gallery_id: g.id,
        kind: "inbox_thread",
        subject_id: other.thread_id,
        version: 4,
        judged_version: 3,
      }),
    );
    const { body } = await explain(ada.token, other.thread_id);
    expect(body.corrected_intent).toBe("invoice_payment");
    expect(body.triage?.intent).toBe("price_request");
    expect(body.triage?.phrases).toEqual([]);
    expect(body.stale).toBe(true);
  });

  it("an untriaged thread answers triage null, and stale: its message waits for the engine", async () => {
    const fresh = await deliver(g.key, conn.id, { body: "Thank you for the catalogue!", subject: "Thanks" });
    const { status, body } = await explain(ada.token, fresh.thread_id);
    expect(status).toBe(200);
    expect(body).toEqual({ thread_id: fresh.thread_id, corrected_intent: null, triage: null, stale: true });
  });

  it("another member's thread is 404, as is an unknown one and another gallery's member's", async () => {
    const theirs = await expectProblem(
      await explain(bea.token, message.thread_id).then((r) => r.response),
      404,
    );
    expect(theirs.detail).toBe(`No inbox thread ${message.thread_id} of yours.`);
    await expectProblem((await explain(ada.token, newId("thr"))).response, 404, "not_found");
    const stranger = await member(await createGallery());
    await expectProblem((await explain(stranger.token, message.thread_id)).response, 404, "not_found");
  });

  it("a secret key is refused with 403 and the member-private sentence; no credential is 401", async () => {
    await expectMemberPrivate(await call("GET", `${THREADS}/${message.thread_id}/triage`, { key: g.key }));
    await expectProblem(await call("GET", `${THREADS}/${message.thread_id}/triage`), 401);
  });

  it("a viewer reads the triage of its own threads (inbox:read), and not another member's", async () => {
    const viewer = await member(g, "viewer");
    const connectionId = await insertConnection(
      g.id,
      viewer.id,
      `viewer-${crypto.randomUUID()}@gallery.example`,
    );
    const own = await deliver(g.key, connectionId, { body: BODY, subject: "For the viewer" });
    await judge(g, own.thread_id, own.id, triageOf());
    const { status, body } = await explain(viewer.token, own.thread_id);
    expect(status).toBe(200);
    expect(body.triage?.message_id).toBe(own.id);
    await expectProblem((await explain(viewer.token, message.thread_id)).response, 404, "not_found");
  });

  it("400 for a malformed id", async () => {
    await expectProblem(
      await call("GET", `${THREADS}/not-an-id/triage`, { key: ada.token }),
      400,
      "invalid_request",
      { field: "id", location: "path" },
    );
  });
});
