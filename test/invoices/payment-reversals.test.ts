import { describe, expect, it } from "vitest";
import { listResponse } from "../../lib/pagination";
import { PaymentReversal, type PaymentReversalBody } from "../../lib/schemas/invoices";
import { forgetCachedResponse } from "../artworks/helpers";
import { memberSession } from "../contact-interactions/helpers";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import {
  BASE,
  createInvoice,
  getBilling,
  getInvoice,
  type InvoiceBody,
  invoiceEvents,
  invoiceEventTypes,
  patchInvoice,
} from "./helpers";

/** POST and GET /gallery/invoices/{id}/payment-reversals: payments taken back, the status following the money. */

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PaymentReversalPage = listResponse(PaymentReversal, "PaymentReversalList");

const reversalsOf = (id: string) => `${BASE}/${id}/payment-reversals`;

/** An issued invoice of 10,000 cents with `paid` of it paid. */
async function invoiceWithPayment(g: TestGallery, paid: number): Promise<InvoiceBody> {
  const invoice = await createInvoice(g, { subtotal_cents: 9_000, tax_cents: 1_000 });
  return patchInvoice(g, invoice.id, { amount_paid_cents: paid });
}

function reverse(
  g: TestGallery,
  id: string,
  body: Record<string, unknown>,
  opts: { key?: string; headers?: Record<string, string> } = {},
) {
  return call("POST", reversalsOf(id), { key: opts.key ?? g.key, body, headers: opts.headers ?? {} });
}

/** POST …/payment-reversals, expecting 201. */
async function reversed(
  g: TestGallery,
  id: string,
  body: Record<string, unknown>,
  key?: string,
): Promise<PaymentReversalBody> {
  const res = await reverse(g, id, body, { key });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(PaymentReversal, res);
}

async function listed(g: TestGallery, id: string, query = ""): Promise<PaymentReversalBody[]> {
  const res = await call("GET", `${reversalsOf(id)}${query}`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await readJson(PaymentReversalPage, res)).data;
}

describe("POST /gallery/invoices/{id}/payment-reversals", () => {
  it("brings a partially paid invoice back to unpaid, which can then be voided", async () => {
    const g = await createGallery();
    const invoice = await invoiceWithPayment(g, 4_000);
    expect(invoice).toMatchObject({ status: "partially_paid", amount_paid_cents: 4_000 });
    const before = (await invoiceEvents(g.id, invoice.id)).length;

    const reversal = await reversed(g, invoice.id, {
      amount_cents: 4_000,
      reason: "error",
      note: "  Recorded against the wrong invoice. ",
    });
    expect(reversal).toEqual({
      id: expect.stringMatching(/^pyrev_/),
      invoice_id: invoice.id,
      amount_cents: 4_000,
      currency: "USD",
      reason: "error",
      note: "Recorded against the wrong invoice.",
      amount_paid_cents: 0,
      created_by: null,
      created_at: expect.stringMatching(ISO_MS),
    });
    const unpaid = await getInvoice(g, invoice.id);
    expect(unpaid).toEqual({
      ...invoice,
      status: "unpaid",
      amount_paid_cents: 0,
      updated_at: reversal.created_at,
    });
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(10_000);

    const events = (await invoiceEvents(g.id, invoice.id)).slice(before);
    expect(events.map((e) => e.type)).toEqual(["invoice.updated", "invoice.payment_reversed"]);
    expect(events[0]!.data).toEqual({
      object: unpaid,
      previous_attributes: { status: "partially_paid", amount_paid_cents: 4_000 },
    });
    expect(events[1]!.data).toEqual({
      object: unpaid,
      previous_attributes: { amount_paid_cents: 4_000 },
      reversal,
    });
    expect(await listed(g, invoice.id)).toEqual([reversal]);

    const voided = await patchInvoice(g, invoice.id, { status: "void" });
    expect(voided).toMatchObject({ status: "void", amount_paid_cents: 0 });
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(0);
    expect((await invoiceEventTypes(g.id, invoice.id)).slice(-2)).toEqual([
      "invoice.updated",
      "invoice.voided",
    ]);
  });

  it("takes a paid invoice back step by step; the list is the ledger, newest first; payments resume", async () => {
    const g = await createGallery();
    const invoice = await invoiceWithPayment(g, 10_000);
    expect(invoice.status).toBe("paid");
    const { memberId, token } = await memberSession(g);

    const first = await reversed(g, invoice.id, { amount_cents: 2_500, reason: "refund" }, token);
    expect(first).toMatchObject({ amount_paid_cents: 7_500, created_by: memberId, note: null });
    expect(await getInvoice(g, invoice.id)).toMatchObject({
      status: "partially_paid",
      amount_paid_cents: 7_500,
    });
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(2_500);
    // An archived invoice still takes its reversals, as it takes payments.
    const archived = await call("POST", `${BASE}/${invoice.id}/archive`, { key: g.key });
    expect(archived.status).toBe(200);
    const second = await reversed(g, invoice.id, { amount_cents: 7_500, reason: "returned" });
    expect(second).toMatchObject({ amount_paid_cents: 0, created_by: null });
    expect(await getInvoice(g, invoice.id)).toMatchObject({ status: "unpaid", amount_paid_cents: 0 });

    expect(await listed(g, invoice.id)).toEqual([second, first]);
    expect(await listed(g, invoice.id, "?dir=asc&limit=1")).toEqual([first]);

    // A PATCH still never lowers the amount paid; it grows again from where the reversals left it.
    const repaid = await patchInvoice(g, invoice.id, { amount_paid_cents: 6_000 });
    expect(repaid).toMatchObject({ status: "partially_paid", amount_paid_cents: 6_000 });
    const down = await call("PATCH", `${BASE}/${invoice.id}`, {
      key: g.key,
      body: { amount_paid_cents: 5_000 },
    });
    expect((await expectProblem(down, 409, "conflict")).detail).toContain("payment-reversals");
  });

  it("refuses amounts, reasons, notes and fields that are not valid with a 400 naming the field", async () => {
    const g = await createGallery();
    const invoice = await invoiceWithPayment(g, 4_000);
    const before = await invoiceEvents(g.id, invoice.id);
    for (const [body, field] of [
      [{ amount_cents: 0, reason: "refund" }, "amount_cents"],
      [{ amount_cents: -100, reason: "refund" }, "amount_cents"],
      [{ amount_cents: 10.5, reason: "refund" }, "amount_cents"],
      [{ amount_cents: "100", reason: "refund" }, "amount_cents"],
      [{ amount_cents: null, reason: "refund" }, "amount_cents"],
      [{ reason: "refund" }, "amount_cents"],
      [{ amount_cents: 100 }, "reason"],
      [{ amount_cents: 100, reason: "chargeback" }, "reason"],
      [{ amount_cents: 100, reason: 1 }, "reason"],
      [{ amount_cents: 100, reason: "refund", note: "   " }, "note"],
      [{ amount_cents: 100, reason: "refund", note: "x".repeat(2001) }, "note"],
      [{ amount_cents: 100, reason: "refund", note: 7 }, "note"],
      [{ amount_cents: 100, reason: "refund", amount_paid_cents: 0 }, "amount_paid_cents"],
      [{ amount_cents: 100, reason: "refund", currency: "EUR" }, "currency"],
    ] as const) {
      const res = await reverse(g, invoice.id, body);
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    expect(await invoiceEvents(g.id, invoice.id)).toEqual(before);
    expect(await getInvoice(g, invoice.id)).toEqual(invoice);
    expect(await listed(g, invoice.id)).toEqual([]);
  });

  it("is 409 naming the status and amount paid: more than was paid, nothing paid, a void invoice", async () => {
    const g = await createGallery();
    const partly = await invoiceWithPayment(g, 4_000);
    const over = await expectProblem(
      await reverse(g, partly.id, { amount_cents: 4_001, reason: "refund" }),
      409,
      "conflict",
    );
    expect(over.details).toEqual({ status: "partially_paid", amount_paid_cents: 4_000 });
    expect(over.detail).toContain("at most 4000");

    const unpaid = await createInvoice(g, { subtotal_cents: 10_000 });
    const draft = await createInvoice(g, { subtotal_cents: 10_000, status: "draft" });
    const voided = await patchInvoice(g, (await createInvoice(g, { subtotal_cents: 10_000 })).id, {
      status: "void",
    });
    for (const invoice of [unpaid, draft, voided]) {
      const problem = await expectProblem(
        await reverse(g, invoice.id, { amount_cents: 1, reason: "error" }),
        409,
        "conflict",
      );
      expect(problem.details).toEqual({ status: invoice.status, amount_paid_cents: 0 });
      expect(await getInvoice(g, invoice.id)).toEqual(invoice);
    }
    expect(await getInvoice(g, partly.id)).toEqual(partly);
  });

  it("never takes back more than was paid when reversals run concurrently", async () => {
    const g = await createGallery();
    const whole = await invoiceWithPayment(g, 4_000);
    const both = await Promise.all(
      [1, 2].map(() => reverse(g, whole.id, { amount_cents: 4_000, reason: "refund" })),
    );
    const landed = both.filter((res) => res.status === 201);
    expect(landed).toHaveLength(1);
    for (const res of both.filter((r) => r.status !== 201)) {
      expect(["concurrent_modification", "conflict"]).toContain((await expectProblem(res, 409)).code);
    }
    expect(await getInvoice(g, whole.id)).toMatchObject({ status: "unpaid", amount_paid_cents: 0 });
    expect(await listed(g, whole.id)).toHaveLength(1);

    const parts = await invoiceWithPayment(g, 4_000);
    const many = await Promise.all(
      Array.from({ length: 6 }, () => reverse(g, parts.id, { amount_cents: 1_000, reason: "error" })),
    );
    const taken = many.filter((res) => res.status === 201).length;
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThanOrEqual(4);
    const after = await getInvoice(g, parts.id);
    expect(after.amount_paid_cents).toBe(4_000 - 1_000 * taken);
    // Each reversal started from the amount the previous one left: the ledger adds up.
    const ledger = await listed(g, parts.id, "?dir=asc");
    expect(ledger.map((r) => r.amount_paid_cents)).toEqual(
      Array.from({ length: taken }, (_, i) => 4_000 - 1_000 * (i + 1)),
    );
  });

  it("replays a retried reversal with the same Idempotency-Key, even once nothing is left to reverse", async () => {
    const g = await createGallery();
    const invoice = await invoiceWithPayment(g, 4_000);
    const body = { amount_cents: 4_000, reason: "refund" };
    const headers = { "Idempotency-Key": "reverse-1" };
    const first = await reverse(g, invoice.id, body, { headers });
    expect(first.status).toBe(201);
    const firstText = await first.text();
    for (const forget of [false, true]) {
      if (forget) await forgetCachedResponse(g.id, "reverse-1");
      const again = await reverse(g, invoice.id, body, { headers });
      expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
      expect(await again.text()).toBe(firstText);
    }
    expect(await listed(g, invoice.id)).toHaveLength(1);
    await expectProblem(
      await reverse(g, invoice.id, { ...body, amount_cents: 1 }, { headers }),
      400,
      "idempotency_key_reused",
    );
  });
});

describe("payment reversals: credentials and tenancy", () => {
  it("needs sales:update to reverse and sales:read to list; a viewer's session reads but cannot reverse", async () => {
    const g = await createGallery();
    const invoice = await invoiceWithPayment(g, 4_000);
    const body = { amount_cents: 100, reason: "refund" };
    const reader = await g.keyWith(["sales:read"]);
    const denied = await expectProblem(await reverse(g, invoice.id, body, { key: reader }), 403, "forbidden");
    expect(denied.details).toHaveProperty("missing_scopes", ["sales:update"]);
    const writer = await g.keyWith(["sales:update"]);
    const unread = await expectProblem(
      await call("GET", reversalsOf(invoice.id), { key: writer }),
      403,
      "forbidden",
    );
    expect(unread.details).toHaveProperty("missing_scopes", ["sales:read"]);
    expect((await reversed(g, invoice.id, body, writer)).amount_paid_cents).toBe(3_900);
    expect(await listed(g, invoice.id)).toHaveLength(1);

    const viewer = await memberSession(g, "viewer");
    await expectProblem(await reverse(g, invoice.id, body, { key: viewer.token }), 403, "forbidden");
    const res = await call("GET", reversalsOf(invoice.id), { key: viewer.token });
    expect(res.status).toBe(200);
    await expectProblem(await call("POST", reversalsOf(invoice.id), { body }), 401, "unauthenticated");
    expect((await getInvoice(g, invoice.id)).amount_paid_cents).toBe(3_900);
  });

  it("answers 404 for another gallery's invoice and changes nothing there", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const theirs = await invoiceWithPayment(other, 4_000);
    const body = { amount_cents: 100, reason: "refund" };
    await expectProblem(await reverse(g, theirs.id, body), 404, "not_found");
    await expectProblem(await call("GET", reversalsOf(theirs.id), { key: g.key }), 404, "not_found");
    await expectProblem(await reverse(g, "inv_01jd4xk9v2c7h8m3n5p6q7r8s9", body), 404, "not_found");
    expect(await getInvoice(other, theirs.id)).toEqual(theirs);
    expect(await listed(other, theirs.id)).toEqual([]);
  });
});
