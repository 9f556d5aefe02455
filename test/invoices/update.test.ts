import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Invoice } from "../../lib/schemas/invoices";
import { forgetCachedResponse } from "../artworks/helpers";
import { newContact } from "../contact-interactions/helpers";
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
  newTemplate,
  patchInvoice,
  todayAround,
} from "./helpers";

/** PATCH /gallery/invoices/{id}: payments, the status machine, the computed money, idempotency and concurrency. */

/** An unpaid invoice of 10,000 cents (a total of 9,000 + 1,000 tax). */
async function unpaid(g: TestGallery, extra: Record<string, unknown> = {}): Promise<InvoiceBody> {
  return createInvoice(g, { subtotal_cents: 9_000, tax_cents: 1_000, ...extra });
}

/** The invoice's events recorded after `after` (a count of the gallery's invoice events), their types sorted. */
async function typesSince(g: TestGallery, after: number): Promise<string[]> {
  return (await invoiceEventTypes(g.id)).slice(after).sort();
}

async function eventCount(g: TestGallery): Promise<number> {
  return (await invoiceEvents(g.id)).length;
}

describe("payments", () => {
  it("through partial and full payment with retried idempotent PATCHes and conflicting ones", async () => {
    const g = await createGallery();
    const invoice = await unpaid(g);
    const path = `${BASE}/${invoice.id}`;
    const send = (body: Record<string, unknown>, key?: string) =>
      call("PATCH", path, { key: g.key, body, ...(key ? { headers: { "Idempotency-Key": key } } : {}) });

    const first = await patchInvoice(
      g,
      invoice.id,
      { amount_paid_cents: 4_000 },
      { "Idempotency-Key": "pay-1" },
    );
    expect(first).toMatchObject({ status: "partially_paid", amount_paid_cents: 4_000 });
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(6_000);
    // A retry replays from the edge cache, then from the database once the cache has forgotten it.
    for (const forget of [false, true]) {
      if (forget) await forgetCachedResponse(g.id, "pay-1");
      const again = await send({ amount_paid_cents: 4_000 }, "pay-1");
      expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
      expect(await again.json()).toEqual(first);
    }
    // The same amount under a new key changes nothing: 200, no event.
    const same = await patchInvoice(
      g,
      invoice.id,
      { amount_paid_cents: 4_000 },
      { "Idempotency-Key": "pay-1b" },
    );
    expect(same).toEqual(first);
    await expectProblem(await send({ amount_paid_cents: 5_000 }, "pay-1"), 400, "idempotency_key_reused");

    const full = await patchInvoice(
      g,
      invoice.id,
      { amount_paid_cents: 10_000 },
      { "Idempotency-Key": "pay-2" },
    );
    expect(full).toMatchObject({ status: "paid", amount_paid_cents: 10_000 });
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(0);
    // The first payment's retry still replays, though the invoice moved on (a new request would now be a 409).
    await forgetCachedResponse(g.id, "pay-1");
    const late = await send({ amount_paid_cents: 4_000 }, "pay-1");
    expect([late.status, late.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(await late.json()).toEqual(first);
    const retried = await send({ amount_paid_cents: 10_000 }, "pay-2");
    expect(retried.headers.get("idempotent-replayed")).toBe("true");

    // Conflicting payments: 409 naming the balance or the amount already paid, nothing changes.
    const over = await expectProblem(await send({ amount_paid_cents: 10_001 }, "pay-3"), 409, "conflict");
    expect(over.details).toEqual({
      status: "paid",
      total_cents: 10_000,
      amount_paid_cents: 10_000,
      amount_due_cents: 0,
    });
    expect(over.detail).toContain("the balance is 0");
    const down = await expectProblem(await send({ amount_paid_cents: 4_000 }), 409, "conflict");
    expect(down.details).toEqual({ status: "paid", amount_paid_cents: 10_000 });
    expect(down.detail).toContain("may not decrease");
    // A refused request made no claim: its key still takes a valid request.
    const freed = await send({ notes: "settled" }, "pay-3");
    expect([freed.status, freed.headers.get("idempotent-replayed")]).toEqual([200, null]);

    expect(await getInvoice(g, invoice.id)).toMatchObject({
      status: "paid",
      amount_paid_cents: 10_000,
      notes: "settled",
    });
    const events = (await invoiceEvents(g.id)).slice(2);
    expect(events.map((e) => e.type).sort()).toEqual([
      "invoice.paid",
      "invoice.payment_recorded",
      "invoice.payment_recorded",
      "invoice.updated",
      "invoice.updated",
      "invoice.updated",
    ]);
    const payments = events.filter((e) => e.type === "invoice.payment_recorded").map((e) => e.data);
    expect(payments).toEqual([
      { object: first, previous_attributes: { amount_paid_cents: 0 } },
      { object: full, previous_attributes: { amount_paid_cents: 4_000 } },
    ]);
    const updates = events.filter((e) => e.type === "invoice.updated").map((e) => e.data);
    expect(updates[0]).toEqual({
      object: first,
      previous_attributes: { status: "unpaid", amount_paid_cents: 0 },
    });
    expect(updates[1]!.previous_attributes).toEqual({ status: "partially_paid", amount_paid_cents: 4_000 });
    expect(updates[2]!.previous_attributes).toEqual({ notes: null });
  });

  it("status paid pays the balance; with amount_paid_cents it must be the total", async () => {
    const g = await createGallery();
    const invoice = await unpaid(g);
    await patchInvoice(g, invoice.id, { amount_paid_cents: 2_500 });
    const mismatch = await call("PATCH", `${BASE}/${invoice.id}`, {
      key: g.key,
      body: { status: "paid", amount_paid_cents: 9_999 },
    });
    expect((await expectProblem(mismatch, 409, "conflict")).details).toMatchObject({ total_cents: 10_000 });
    const before = await eventCount(g);
    const paid = await patchInvoice(g, invoice.id, { status: "paid", amount_paid_cents: 10_000 });
    expect(paid).toMatchObject({ status: "paid", amount_paid_cents: 10_000 });
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(0);
    expect(await typesSince(g, before)).toEqual([
      "invoice.paid",
      "invoice.payment_recorded",
      "invoice.updated",
    ]);
    const again = await patchInvoice(g, invoice.id, { status: "paid" });
    expect(again).toEqual(paid);
    expect(await eventCount(g)).toBe(before + 3);
  });

  it("a zero total is paid by status paid, with no payment recorded", async () => {
    const g = await createGallery();
    const invoice = await createInvoice(g, { subtotal_cents: 0 });
    const before = await eventCount(g);
    const paid = await patchInvoice(g, invoice.id, { status: "paid" });
    expect([paid.status, paid.amount_paid_cents]).toEqual(["paid", 0]);
    expect(await typesSince(g, before)).toEqual(["invoice.paid", "invoice.updated"]);
  });

  it("two concurrent payments never both land on a stale amount", async () => {
    const g = await createGallery();
    const invoice = await createInvoice(g, { subtotal_cents: 100_000 });
    const amounts = Array.from({ length: 10 }, (_, i) => 10_000 * (i + 1));
    const responses = await Promise.all(
      amounts.map((amount_paid_cents) =>
        call("PATCH", `${BASE}/${invoice.id}`, { key: g.key, body: { amount_paid_cents } }),
      ),
    );
    const landed: InvoiceBody[] = [];
    for (const res of responses) {
      if (res.status === 200) landed.push(await readJson(Invoice, res));
      else expect(["concurrent_modification", "conflict"]).toContain((await expectProblem(res, 409)).code);
    }
    expect(landed.length).toBeGreaterThan(0);
    landed.sort((a, b) => a.updated_at.localeCompare(b.updated_at));
    const final = await getInvoice(g, invoice.id);
    expect(final.amount_paid_cents).toBe(landed[landed.length - 1]!.amount_paid_cents);
    // Each recorded payment started from the amount the previous one left: none was computed from a stale read.
    const payments = (await invoiceEvents(g.id, invoice.id))
      .filter((e) => e.type === "invoice.payment_recorded")
      .map((e) => e.data as { object: InvoiceBody; previous_attributes: { amount_paid_cents: number } });
    payments.sort((a, b) => a.object.updated_at.localeCompare(b.object.updated_at));
    expect(payments.map((p) => p.object.amount_paid_cents)).toEqual(landed.map((l) => l.amount_paid_cents));
    let paid = 0;
    for (const p of payments) {
      expect(p.previous_attributes.amount_paid_cents).toBe(paid);
      expect(p.object.amount_paid_cents).toBeGreaterThan(paid);
      paid = p.object.amount_paid_cents;
    }
  });
});

describe("the status machine", () => {
  it("issues a draft: issued_date defaults to today, invoice.issued; payments wait for the issue", async () => {
    const g = await createGallery();
    const draft = await createInvoice(g, { status: "draft", subtotal_cents: 10_000 });
    const path = `${BASE}/${draft.id}`;
    for (const body of [{ amount_paid_cents: 1 }, { status: "paid" }]) {
      const problem = await expectProblem(await call("PATCH", path, { key: g.key, body }), 409, "conflict");
      expect(problem.details).toEqual({ status: "draft" });
    }
    // A draft's amounts still change freely.
    const edited = await patchInvoice(g, draft.id, { subtotal_cents: 12_000, due_date: "2099-01-31" });
    expect([edited.status, edited.total_cents]).toEqual(["draft", 12_000]);
    const before = await eventCount(g);
    const { result: issued, days } = await todayAround(() => patchInvoice(g, draft.id, { status: "unpaid" }));
    expect(issued.status).toBe("unpaid");
    expect(days).toContain(issued.issued_date);
    expect(await typesSince(g, before)).toEqual(["invoice.issued", "invoice.updated"]);
    const updated = (await invoiceEvents(g.id)).find((e, i) => i >= before && e.type === "invoice.updated");
    expect(updated?.data.previous_attributes).toEqual({ status: "draft", issued_date: null });
  });

  it("issues a draft on its given issued_date, and takes a payment in the same request", async () => {
    const g = await createGallery();
    const draft = await createInvoice(g, {
      status: "draft",
      subtotal_cents: 10_000,
      issued_date: "2024-05-01",
    });
    const before = await eventCount(g);
    const issued = await patchInvoice(g, draft.id, { status: "unpaid", amount_paid_cents: 3_000 });
    expect(issued).toMatchObject({
      status: "partially_paid",
      issued_date: "2024-05-01",
      amount_paid_cents: 3_000,
    });
    expect(await typesSince(g, before)).toEqual([
      "invoice.issued",
      "invoice.payment_recorded",
      "invoice.updated",
    ]);
    const other = await createInvoice(g, { status: "draft", subtotal_cents: 10_000 });
    const dated = await patchInvoice(g, other.id, { status: "unpaid", issued_date: "2024-06-01" });
    expect(dated.issued_date).toBe("2024-06-01");
  });

  it("voids a draft or unpaid invoice; void is final but for notes, metadata and the archive", async () => {
    const g = await createGallery();
    const draft = await createInvoice(g, { status: "draft", subtotal_cents: 1 });
    expect((await patchInvoice(g, draft.id, { status: "void" })).status).toBe("void");
    const invoice = await unpaid(g, { due_date: "2099-01-01" });
    const withPayment = await call("PATCH", `${BASE}/${invoice.id}`, {
      key: g.key,
      body: { status: "void", amount_paid_cents: 5 },
    });
    expect((await expectProblem(withPayment, 409, "conflict")).details).toEqual({
      status: "unpaid",
      amount_paid_cents: 0,
    });
    const before = await eventCount(g);
    const voided = await patchInvoice(g, invoice.id, { status: "void" });
    expect(voided).toMatchObject({ status: "void", amount_paid_cents: 0, total_cents: 10_000 });
    // Nobody owes a void invoice.
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(0);
    expect(await typesSince(g, before)).toEqual(["invoice.updated", "invoice.voided"]);
    const path = `${BASE}/${invoice.id}`;
    for (const [body, fields] of [
      [{ amount_paid_cents: 100 }, ["amount_paid_cents"]],
      [{ status: "paid" }, ["status"]],
      [{ status: "unpaid" }, ["status"]],
      [{ due_date: "2099-02-01", notes: "x" }, ["due_date"]],
      [{ subtotal_cents: 5 }, ["subtotal_cents"]],
      [{ billing_address: "Elsewhere" }, ["billing_address"]],
    ] as const) {
      const problem = await expectProblem(await call("PATCH", path, { key: g.key, body }), 409, "conflict");
      expect(problem.details).toEqual({ status: "void", fields });
      expect(problem.detail).toContain("is void");
    }
    const noted = await patchInvoice(g, invoice.id, {
      notes: "Reissued as INV-000003",
      metadata: { r: "1" },
    });
    expect([noted.status, noted.notes]).toEqual(["void", "Reissued as INV-000003"]);
    // Values it already has are no change.
    expect((await patchInvoice(g, invoice.id, { status: "void", subtotal_cents: 9_000 })).updated_at).toBe(
      noted.updated_at,
    );
    expect((await call("POST", `${path}/archive`, { key: g.key })).status).toBe(200);
  });

  it("a partially paid or paid invoice cannot be voided or set back to unpaid: refund first", async () => {
    const g = await createGallery();
    const partly = await unpaid(g);
    await patchInvoice(g, partly.id, { amount_paid_cents: 1 });
    const paid = await unpaid(g);
    await patchInvoice(g, paid.id, { status: "paid" });
    for (const [id, status, amount] of [
      [partly.id, "partially_paid", 1],
      [paid.id, "paid", 10_000],
    ] as const) {
      const path = `${BASE}/${id}`;
      const voiding = await expectProblem(
        await call("PATCH", path, { key: g.key, body: { status: "void" } }),
        409,
        "conflict",
      );
      expect(voiding.details).toEqual({ status, amount_paid_cents: amount });
      expect(voiding.detail).toContain("refund the payment first");
      const back = await expectProblem(
        await call("PATCH", path, { key: g.key, body: { status: "unpaid" } }),
        409,
        "conflict",
      );
      expect(back.details).toEqual({ status, amount_paid_cents: amount });
    }
  });

  it("a paid invoice keeps its money; its addresses, dates, notes and metadata still change", async () => {
    const g = await createGallery();
    const invoice = await unpaid(g, { currency: "EUR", fx_usd_per_unit: 1.1, fx_base_usd_per_unit: 1 });
    await patchInvoice(g, invoice.id, { status: "paid" });
    const path = `${BASE}/${invoice.id}`;
    for (const [body, fields] of [
      [{ subtotal_cents: 1 }, ["subtotal_cents"]],
      [{ discount_bps: 100, notes: "x" }, ["discount_bps"]],
      [{ tax_cents: 0, shipping_cents: 5 }, ["tax_cents", "shipping_cents"]],
      [{ currency: "USD" }, ["currency"]],
      [{ fx_usd_per_unit: 1.2 }, ["fx_usd_per_unit"]],
      [{ fx_as_of: "2024-01-01" }, ["fx_as_of"]],
      [{ fx_base_currency: "EUR" }, ["fx_base_currency"]],
    ] as const) {
      const problem = await expectProblem(await call("PATCH", path, { key: g.key, body }), 409, "conflict");
      expect(problem.details).toEqual({ status: "paid", fields });
    }
    const edited = await patchInvoice(g, invoice.id, {
      billing_address: "New address",
      shipping_name: "Courier desk",
      due_date: "2099-12-31",
      notes: "Thanks",
      metadata: { k: "v" },
      accepted_payment_methods: ["wire"],
      subtotal_cents: 9_000,
    });
    expect(edited).toMatchObject({
      status: "paid",
      billing_address: "New address",
      due_date: "2099-12-31",
      total_cents: 10_000,
      base_amount_cents: 11_000,
    });
  });
});

describe("amounts on an issued invoice", () => {
  it("recompute the discount, total and base amount; previous_attributes holds every field that moved", async () => {
    const g = await createGallery();
    const invoice = await createInvoice(g, {
      subtotal_cents: 10_000,
      discount_bps: 1_000,
      currency: "EUR",
      fx_usd_per_unit: 1.1,
      fx_base_usd_per_unit: 1,
    });
    expect([invoice.discount_cents, invoice.total_cents, invoice.base_amount_cents]).toEqual([
      1_000, 9_000, 9_900,
    ]);
    const before = await eventCount(g);
    const changed = await patchInvoice(g, invoice.id, { subtotal_cents: 10_005, shipping_cents: 500 });
    expect(changed).toMatchObject({
      subtotal_cents: 10_005,
      discount_cents: 1_001,
      discount_bps: 1_000,
      total_cents: 9_504,
      base_amount_cents: 10_454,
    });
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(9_504);
    const events = (await invoiceEvents(g.id)).slice(before);
    expect(events.map((e) => e.type)).toEqual(["invoice.updated"]);
    expect(events[0]!.data).toEqual({
      object: changed,
      previous_attributes: {
        subtotal_cents: 10_000,
        discount_cents: 1_000,
        shipping_cents: 0,
        total_cents: 9_000,
        base_amount_cents: 9_900,
      },
    });
  });

  it("switch between a discount in cents and one in basis points", async () => {
    const g = await createGallery();
    const invoice = await createInvoice(g, { subtotal_cents: 10_000, discount_bps: 250 });
    expect(invoice.discount_cents).toBe(250);
    const cents = await patchInvoice(g, invoice.id, { discount_cents: 250 });
    expect([cents.discount_cents, cents.discount_bps]).toEqual([250, 0]);
    expect((await patchInvoice(g, invoice.id, { subtotal_cents: 20_000 })).discount_cents).toBe(250);
    const bps = await patchInvoice(g, invoice.id, { discount_bps: 500 });
    expect([bps.discount_cents, bps.discount_bps, bps.total_cents]).toEqual([1_000, 500, 19_000]);
    const ended = await patchInvoice(g, invoice.id, { discount_bps: 0 });
    expect([ended.discount_cents, ended.discount_bps, ended.total_cents]).toEqual([0, 0, 20_000]);
    const fixed = await patchInvoice(g, invoice.id, { discount_cents: 700 });
    // discount_bps 0 alone leaves a discount in cents as it is.
    expect((await patchInvoice(g, invoice.id, { discount_bps: 0 })).updated_at).toBe(fixed.updated_at);
    const both = await patchInvoice(g, invoice.id, { discount_cents: 0, discount_bps: 1_000 });
    expect([both.discount_cents, both.discount_bps]).toEqual([2_000, 1_000]);
    const res = await call("PATCH", `${BASE}/${invoice.id}`, {
      key: g.key,
      body: { discount_cents: 5, discount_bps: 5 },
    });
    await expectProblem(res, 400, "invalid_request", { field: "discount_bps", location: "body" });
  });

  it("on a partially paid invoice: never below the amount paid; exactly the amount paid makes it paid", async () => {
    const g = await createGallery();
    const invoice = await unpaid(g);
    await patchInvoice(g, invoice.id, { amount_paid_cents: 6_000 });
    const res = await call("PATCH", `${BASE}/${invoice.id}`, { key: g.key, body: { subtotal_cents: 4_999 } });
    const problem = await expectProblem(res, 409, "conflict");
    expect(problem.details).toEqual({
      status: "partially_paid",
      total_cents: 5_999,
      amount_paid_cents: 6_000,
    });
    const before = await eventCount(g);
    const paid = await patchInvoice(g, invoice.id, { subtotal_cents: 5_000 });
    expect(paid).toMatchObject({ status: "paid", total_cents: 6_000, amount_paid_cents: 6_000 });
    expect((await getBilling(g, invoice.id)).amount_due_cents).toBe(0);
    expect(await typesSince(g, before)).toEqual(["invoice.paid", "invoice.updated"]);
  });

  it("a payment and new amounts in one request: the payment is checked against the new total", async () => {
    const g = await createGallery();
    const invoice = await unpaid(g);
    const over = await call("PATCH", `${BASE}/${invoice.id}`, {
      key: g.key,
      body: { tax_cents: 0, amount_paid_cents: 9_500 },
    });
    expect((await expectProblem(over, 409, "conflict")).details).toMatchObject({
      total_cents: 9_000,
      amount_due_cents: 9_000,
    });
    const paid = await patchInvoice(g, invoice.id, { tax_cents: 0, status: "paid" });
    expect([paid.total_cents, paid.amount_paid_cents, paid.status]).toEqual([9_000, 9_000, "paid"]);
  });
});

describe("PATCH /gallery/invoices/{id}: bad input", () => {
  it.each([
    ["status", { status: "partially_paid" }],
    ["status", { status: "draft" }],
    ["status", { status: "overdue" }],
    ["total_cents", { total_cents: 1 }],
    ["base_amount_cents", { base_amount_cents: 1 }],
    ["amount_due_cents", { amount_due_cents: 1 }],
    ["invoice_number", { invoice_number: "INV-1" }],
    ["sale_id", { sale_id: newId("sale") }],
    ["no_such_field", { no_such_field: 1 }],
    ["amount_paid_cents", { amount_paid_cents: -1 }],
    ["amount_paid_cents", { amount_paid_cents: 10.5 }],
    ["discount_bps", { discount_cents: 1, discount_bps: 1 }],
    ["due_date", { due_date: "2024-02-30" }],
    ["fx_base_currency", { fx_base_currency: "eur" }],
    ["contact_id", { contact_id: newId("con") }],
    ["template_id", { template_id: newId("tmpl") }],
    // Rules on the invoice as it would be stored, naming the field sent:
    ["due_date", { due_date: "2024-04-30" }],
    ["issued_date", { issued_date: "2024-06-01" }],
    ["issued_date", { issued_date: null }],
    ["discount_cents", { discount_cents: 10_001 }],
    ["subtotal_cents", { subtotal_cents: 99 }],
    ["fx_usd_per_unit", { currency: "CHF" }],
    ["fx_base_usd_per_unit", { currency: "CHF", fx_usd_per_unit: 1.1 }],
    ["fx_usd_per_unit", { fx_base_currency: "CHF" }],
  ])("400 naming %s (case %#); the invoice is unchanged", async (field, change) => {
    const g = await createGallery();
    const invoice = await createInvoice(g, {
      subtotal_cents: 10_000,
      discount_cents: 100,
      issued_date: "2024-05-01",
      due_date: "2024-05-31",
    });
    const res = await call("PATCH", `${BASE}/${invoice.id}`, { key: g.key, body: change });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect(await getInvoice(g, invoice.id)).toEqual(invoice);
    expect((await invoiceEventTypes(g.id)).sort()).toEqual(["invoice.created", "invoice.issued"]);
  });

  it("an empty body or no body changes nothing; a body that is not JSON is a 400", async () => {
    const g = await createGallery();
    const invoice = await unpaid(g);
    expect(await patchInvoice(g, invoice.id, {})).toEqual(invoice);
    await expectProblem(await call("PATCH", `${BASE}/${invoice.id}`, { key: g.key }), 400, "invalid_request");
    expect(await eventCount(g)).toBe(2);
  });

  it("a request that changes nothing records nothing and keeps updated_at", async () => {
    const g = await createGallery();
    const contact = await newContact(g);
    const template = await newTemplate(g.id);
    const invoice = await unpaid(g, {
      contact_id: contact,
      template_id: template,
      tax_calculated_at: "2024-01-01T00:00:00.123456Z",
      accepted_payment_methods: ["card"],
      metadata: { a: "b" },
    });
    const same = await patchInvoice(g, invoice.id, {
      contact_id: contact,
      template_id: template,
      subtotal_cents: 9_000,
      tax_calculated_at: "2024-01-01T00:00:00.123Z",
      accepted_payment_methods: ["card"],
      metadata: { a: "b" },
      status: "unpaid",
      amount_paid_cents: 0,
      currency: "USD",
    });
    expect(same).toEqual(invoice);
    expect(await eventCount(g)).toBe(2);
  });

  it("contact and template: the gallery's own, or null", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const invoice = await unpaid(g);
    for (const [field, body] of [
      ["contact_id", { contact_id: await newContact(other) }],
      ["template_id", { template_id: await newTemplate(other.id) }],
    ] as const) {
      const res = await call("PATCH", `${BASE}/${invoice.id}`, { key: g.key, body });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    const contact = await newContact(g);
    const template = await newTemplate(g.id);
    const set = await patchInvoice(g, invoice.id, { contact_id: contact, template_id: template });
    expect([(await getBilling(g, invoice.id)).contact_id, set.template_id]).toEqual([contact, template]);
    const cleared = await patchInvoice(g, invoice.id, { contact_id: null, template_id: null });
    expect([(await getBilling(g, invoice.id)).contact_id, cleared.template_id]).toEqual([null, null]);
  });

  it("a change of the billed contact alone is a change: recorded, named by the updated_at it moved", async () => {
    const g = await createGallery();
    const invoice = await unpaid(g);
    const before = await eventCount(g);
    const contact = await newContact(g);
    const billed = await patchInvoice(g, invoice.id, { contact_id: contact });
    expect(billed.updated_at > invoice.updated_at).toBe(true);
    expect((await getBilling(g, invoice.id)).contact_id).toBe(contact);
    const events = (await invoiceEvents(g.id)).slice(before);
    expect(events.map((e) => e.data)).toEqual([
      { object: billed, previous_attributes: { updated_at: invoice.updated_at } },
    ]);
    expect(await patchInvoice(g, invoice.id, { contact_id: contact })).toEqual(billed);
    expect(await eventCount(g)).toBe(before + 1);
  });
});

describe("PATCH /gallery/invoices/{id}: security", () => {
  it("404 for another gallery's invoice and an unknown one; 401; 403 without sales:update", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const invoice = await unpaid(g);
    const path = `${BASE}/${invoice.id}`;
    const body = { amount_paid_cents: 1 };
    await expectProblem(await call("PATCH", path, { key: other.key, body }), 404, "not_found");
    await expectProblem(
      await call("PATCH", `${BASE}/${newId("inv")}`, { key: g.key, body }),
      404,
      "not_found",
    );
    await expectProblem(await call("PATCH", path, { body }), 401, "unauthenticated");
    const key = await g.keyWith(["sales:read", "sales:create", "sales:delete"]);
    const res = await call("PATCH", path, { key, body });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "sales:update",
    ]);
    expect(await getInvoice(g, invoice.id)).toEqual(invoice);
  });

  it("concurrent edits are guarded: each change starts from the state the previous one left", async () => {
    const g = await createGallery();
    const invoice = await unpaid(g);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call("PATCH", `${BASE}/${invoice.id}`, { key: g.key, body: { notes: `note ${i}` } }),
      ),
    );
    for (const res of results) {
      if (res.status !== 200) await expectProblem(res, 409, "concurrent_modification");
    }
    const updates = (await invoiceEvents(g.id))
      .filter((e) => e.type === "invoice.updated")
      .map((e) => e.data as { object: InvoiceBody; previous_attributes: { notes: string | null } });
    expect(updates).toHaveLength(results.filter((r) => r.status === 200).length);
    updates.sort((a, b) => a.object.updated_at.localeCompare(b.object.updated_at));
    let notes: string | null = null;
    for (const u of updates) {
      expect(u.previous_attributes.notes).toBe(notes);
      notes = u.object.notes;
    }
    expect((await getInvoice(g, invoice.id)).notes).toBe(notes);
  });
});
