import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Invoice } from "../../lib/schemas/invoices";
import { forgetCachedResponse } from "../artworks/helpers";
import { ISO_MS, memberSession, newContact } from "../contact-interactions/helpers";
import { call, createGallery, db, readJson } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  BASE,
  createInvoice,
  getBilling,
  getInvoice,
  invoiceEvents,
  invoiceEventTypes,
  newSale,
  newTemplate,
  todayAround,
} from "./helpers";

/** POST /gallery/invoices and GET /gallery/invoices/{id}: creation, the computed money, numbering, security. */

describe("POST /gallery/invoices", () => {
  it("creates a standalone invoice with every field, issued today, and emits invoice.created and invoice.issued", async () => {
    const g = await createGallery();
    const contact = await newContact(g, "Agnes Martin");
    const template = await newTemplate(g.id);
    const { result: invoice, days } = await todayAround(() =>
      createInvoice(g, {
        contact_id: contact,
        subtotal_cents: 1_000_000,
        discount_cents: 50_000,
        tax_cents: 84_313,
        shipping_cents: 45_000,
        shipping_tax_cents: 3_994,
        due_date: "2099-12-31",
        accepted_payment_methods: ["wire", "card"],
        currency: "USD",
        fx_as_of: "2024-02-29",
        billing_name: "Agnes Martin Foundation",
        billing_address: "1 Taos Road, NM",
        shipping_name: "A. Martin",
        shipping_address: "2 Mesa Way, NM",
        tax_address_line1: "1 Taos Road",
        tax_address_city: "Taos",
        tax_address_state: "NM",
        tax_address_postal_code: "87571",
        tax_address_country: "US",
        tax_calculated_at: "2024-02-29T10:00Z",
        taxability_override: "exempt",
        notes: "Net 30",
        template_id: template,
        metadata: { channel: "fair" },
      }),
    );
    expect(invoice).toEqual({
      id: expect.stringMatching(/^inv_[0-9a-z]{26}$/),
      sale_id: null,
      invoice_number: "INV-000001",
      status: "unpaid",
      issued_date: expect.any(String),
      due_date: "2099-12-31",
      subtotal_cents: 1_000_000,
      discount_cents: 50_000,
      discount_bps: 0,
      tax_cents: 84_313,
      shipping_cents: 45_000,
      shipping_tax_cents: 3_994,
      total_cents: 1_000_000 - 50_000 + 84_313 + 45_000 + 3_994,
      amount_paid_cents: 0,
      accepted_payment_methods: ["wire", "card"],
      currency: "USD",
      fx_as_of: "2024-02-29",
      fx_usd_per_unit: null,
      fx_base_usd_per_unit: null,
      fx_base_currency: "USD",
      base_amount_cents: 1_083_307,
      billing_name: "Agnes Martin Foundation",
      billing_address: "1 Taos Road, NM",
      shipping_name: "A. Martin",
      shipping_address: "2 Mesa Way, NM",
      tax_address_line1: "1 Taos Road",
      tax_address_city: "Taos",
      tax_address_state: "NM",
      tax_address_postal_code: "87571",
      tax_address_country: "US",
      tax_calculated_at: "2024-02-29T10:00:00.000Z",
      taxability_override: "exempt",
      notes: "Net 30",
      archived_at: null,
      template_id: template,
      metadata: { channel: "fair" },
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(days).toContain(invoice.issued_date);
    expect(Object.keys(invoice)).toEqual(Object.keys(Invoice.shape));
    expect(await getInvoice(g, invoice.id)).toEqual(invoice);
    expect(await getBilling(g, invoice.id)).toEqual({
      invoice_id: invoice.id,
      contact_id: contact,
      amount_due_cents: 1_083_307,
      currency: "USD",
    });
    const events = await invoiceEvents(g.id);
    expect(events.map((e) => e.type).sort()).toEqual(["invoice.created", "invoice.issued"]);
    for (const e of events) expect(e.data).toEqual({ object: invoice });
  });

  it("a draft: no issued_date unless given, only invoice.created; defaults are empty", async () => {
    const g = await createGallery();
    const draft = await createInvoice(g, { status: "draft", subtotal_cents: 100 });
    expect(draft).toMatchObject({
      status: "draft",
      issued_date: null,
      due_date: null,
      billing_name: null,
      accepted_payment_methods: [],
      taxability_override: "none",
      metadata: {},
      total_cents: 100,
      currency: "USD",
      fx_base_currency: "USD",
      base_amount_cents: 100,
    });
    expect((await getBilling(g, draft.id)).contact_id).toBeNull();
    const dated = await createInvoice(g, { status: "draft", subtotal_cents: 0, issued_date: "2024-03-01" });
    expect([dated.issued_date, dated.invoice_number]).toEqual(["2024-03-01", "INV-000002"]);
    expect(await invoiceEventTypes(g.id)).toEqual(["invoice.created", "invoice.created"]);
  });

  it("a standalone invoice with a contact takes the contact's name as billing_name unless given", async () => {
    const g = await createGallery();
    const contact = await newContact(g, "Lee Krasner");
    expect((await createInvoice(g, { contact_id: contact, subtotal_cents: 1 })).billing_name).toBe(
      "Lee Krasner",
    );
    const given = await createInvoice(g, { contact_id: contact, subtotal_cents: 1, billing_name: null });
    expect(given.billing_name).toBeNull();
  });

  it("from a sale: fills the buyer, currency, subtotal and billing name unless given", async () => {
    const g = await createGallery();
    const sale = await newSale(g, { buyer: "Helen Frankenthaler", amount_cents: 2_400_000 });
    const filled = await createInvoice(g, { sale_id: sale.id, tax_cents: 10 });
    expect((await getBilling(g, filled.id)).contact_id).toBe(sale.contactId);
    expect(filled).toMatchObject({
      sale_id: sale.id,
      currency: "USD",
      subtotal_cents: 2_400_000,
      total_cents: 2_400_010,
      billing_name: "Helen Frankenthaler",
    });
    const other = await newContact(g, "Estate of H.F.");
    const given = await createInvoice(g, {
      sale_id: sale.id,
      contact_id: other,
      subtotal_cents: 2_000_000,
      billing_name: "Accounts payable",
    });
    expect((await getBilling(g, given.id)).contact_id).toBe(other);
    expect(given).toMatchObject({
      sale_id: sale.id,
      subtotal_cents: 2_000_000,
      billing_name: "Accounts payable",
    });
  });

  it("from a sale in another currency: the rates are required, and the base amount is converted", async () => {
    const g = await createGallery();
    const sale = await newSale(g, { amount_cents: 1_000_000, currency: "EUR", base_amount_cents: 1_085_000 });
    const res = await call("POST", BASE, { key: g.key, body: { sale_id: sale.id } });
    const problem = await expectProblem(res, 400, "invalid_request", {
      field: "fx_usd_per_unit",
      location: "body",
    });
    expect(problem.details?.[0]?.message).toBe(
      "is required when currency (EUR) is not fx_base_currency (USD)",
    );
    const invoice = await createInvoice(g, {
      sale_id: sale.id,
      fx_usd_per_unit: 1.085,
      fx_base_usd_per_unit: 1,
    });
    expect(invoice).toMatchObject({
      currency: "EUR",
      total_cents: 1_000_000,
      fx_base_currency: "USD",
      base_amount_cents: 1_085_000,
      invoice_number: "INV-000001",
    });
  });
});

describe("the money is computed", () => {
  it.each([
    // subtotal, bps, discount: round half up of subtotal × bps / 10000 (2.5 → 3, not 2)
    [5, 1000, 1],
    [14, 1000, 1],
    [15, 1000, 2],
    [25, 1000, 3],
    [35, 1000, 4],
    [1_999_999, 1250, 250_000],
    [100, 10_000, 100],
    [123_456, 1, 12],
  ])("subtotal %i with %i bps: discount %i", async (subtotal, bps, discount) => {
    const g = await createGallery();
    const invoice = await createInvoice(g, {
      subtotal_cents: subtotal,
      discount_bps: bps,
      tax_cents: 7,
      shipping_cents: 11,
      shipping_tax_cents: 13,
    });
    expect(invoice).toMatchObject({
      discount_cents: discount,
      discount_bps: bps,
      total_cents: subtotal - discount + 7 + 11 + 13,
      base_amount_cents: subtotal - discount + 31,
    });
  });

  it.each([
    // total, fx_usd_per_unit, fx_base_usd_per_unit, base: round half away from zero, in decimal arithmetic
    [50, 1.15, 1, 58], // 57.5 exactly (floating point would make it 57.4999… and round to 57)
    [45, 0.7, 1, 32], // 31.5
    [5, 1.1, 1, 6], // 5.5
    [3, 1, 2, 2], // 1.5
    [1, 1, 0.8, 1], // 1.25
    [1_000_000, 1.27, 1.0825, 1_173_210], // 1173210.16…
    [0, 1.3, 1, 0],
  ])("total %i at %d / %d: base %i", async (total, usd, baseUsd, base) => {
    const g = await createGallery();
    const invoice = await createInvoice(g, {
      subtotal_cents: total,
      currency: "GBP",
      fx_usd_per_unit: usd,
      fx_base_usd_per_unit: baseUsd,
    });
    expect([invoice.total_cents, invoice.base_amount_cents, invoice.fx_base_currency]).toEqual([
      total,
      base,
      "USD",
    ]);
  });

  it("fx_base_currency defaults to the gallery's default currency; the same currency needs no rates", async () => {
    const g = await createGallery();
    await db().execute(sql`update galleries set default_currency = 'EUR' where id = ${g.id}`);
    const eur = await createInvoice(g, { subtotal_cents: 900 });
    expect([eur.currency, eur.fx_base_currency, eur.base_amount_cents]).toEqual(["EUR", "EUR", 900]);
    const usd = await createInvoice(g, {
      subtotal_cents: 1000,
      currency: "USD",
      fx_usd_per_unit: 1,
      fx_base_usd_per_unit: 1.08,
    });
    expect([usd.fx_base_currency, usd.base_amount_cents]).toEqual(["EUR", 926]);
    const sameBase = await createInvoice(g, {
      subtotal_cents: 1000,
      currency: "USD",
      fx_base_currency: "USD",
    });
    expect([sameBase.base_amount_cents, sameBase.fx_usd_per_unit]).toEqual([1000, null]);
  });

  it("each missing rate is a 400 naming it; rates that convert beyond 2^53 - 1 are a 400 naming fx_usd_per_unit", async () => {
    const g = await createGallery();
    const body = { subtotal_cents: 1000, currency: "JPY" };
    await expectProblem(
      await call("POST", BASE, { key: g.key, body: { ...body, fx_base_usd_per_unit: 1 } }),
      400,
      "invalid_request",
      { field: "fx_usd_per_unit", location: "body" },
    );
    await expectProblem(
      await call("POST", BASE, { key: g.key, body: { ...body, fx_usd_per_unit: 0.0067 } }),
      400,
      "invalid_request",
      { field: "fx_base_usd_per_unit", location: "body" },
    );
    const huge = {
      subtotal_cents: 1_000_000_000_000_000,
      fx_usd_per_unit: 1_000_000,
      fx_base_usd_per_unit: 0.001,
    };
    await expectProblem(
      await call("POST", BASE, { key: g.key, body: { ...body, ...huge } }),
      400,
      "invalid_request",
      { field: "fx_usd_per_unit", location: "body" },
    );
    expect((await getPage(g.key, BASE)).data).toEqual([]);
    expect((await createInvoice(g, { subtotal_cents: 1 })).invoice_number).toBe("INV-000001");
  });
});

describe("POST /gallery/invoices: bad input", () => {
  it.each([
    ["total_cents", { total_cents: 100 }],
    ["base_amount_cents", { base_amount_cents: 100 }],
    ["amount_paid_cents", { amount_paid_cents: 100 }],
    ["invoice_number", { invoice_number: "INV-9" }],
    ["amount_due_cents", { amount_due_cents: 1 }],
    ["no_such_field", { no_such_field: 1 }],
    ["subtotal_cents", { subtotal_cents: undefined }],
    ["subtotal_cents", { subtotal_cents: -1 }],
    ["subtotal_cents", { subtotal_cents: 1.5 }],
    ["subtotal_cents", { subtotal_cents: 1_000_000_000_000_001 }],
    ["subtotal_cents", { subtotal_cents: "100" }],
    ["tax_cents", { tax_cents: -5 }],
    ["discount_bps", { discount_bps: 10_001 }],
    ["discount_bps", { discount_bps: 12.5 }],
    ["discount_bps", { discount_cents: 10, discount_bps: 100 }],
    ["status", { status: "paid" }],
    ["status", { status: "partially_paid" }],
    ["status", { status: "void" }],
    ["currency", { currency: "usd" }],
    ["fx_base_currency", { fx_base_currency: null }],
    ["fx_usd_per_unit", { fx_usd_per_unit: 0 }],
    ["fx_base_usd_per_unit", { fx_base_usd_per_unit: -1 }],
    ["issued_date", { issued_date: "2023-02-29" }],
    ["due_date", { due_date: "2024-13-01" }],
    ["due_date", { due_date: "2024-1-1" }],
    ["fx_as_of", { fx_as_of: "2024-02-29T00:00Z" }],
    ["tax_calculated_at", { tax_calculated_at: "2024-01-01" }],
    ["accepted_payment_methods.0", { accepted_payment_methods: ["paypal"] }],
    ["accepted_payment_methods", { accepted_payment_methods: ["card", "card"] }],
    ["taxability_override", { taxability_override: "zero_rated" }],
    ["tax_address_country", { tax_address_country: "USA" }],
    ["contact_id", { contact_id: "nope" }],
    ["contact_id", { contact_id: newId("con") }],
    ["sale_id", { sale_id: newId("sale") }],
    ["template_id", { template_id: newId("tmpl") }],
    ["metadata.n", { metadata: { n: 1 } }],
    // Rules on the invoice as stored:
    ["due_date", { issued_date: "2024-03-02", due_date: "2024-03-01" }],
    ["due_date", { due_date: "2000-01-01" }],
    ["discount_cents", { discount_cents: 1001 }],
  ])("400 naming %s (case %#); nothing is stored and no number is taken", async (field, change) => {
    const g = await createGallery();
    const body = { subtotal_cents: 1000, ...change };
    const res = await call("POST", BASE, { key: g.key, body });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect((await getPage(g.key, BASE)).data).toEqual([]);
    expect(await invoiceEvents(g.id)).toEqual([]);
    expect((await createInvoice(g, { subtotal_cents: 1 })).invoice_number).toBe("INV-000001");
  });

  it("400 for another gallery's sale, contact or template", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const theirSale = await newSale(other);
    const theirContact = await newContact(other);
    const theirTemplate = await newTemplate(other.id);
    for (const [field, body] of [
      ["sale_id", { sale_id: theirSale.id }],
      ["contact_id", { contact_id: theirContact, subtotal_cents: 1 }],
      ["template_id", { template_id: theirTemplate, subtotal_cents: 1 }],
    ] as const) {
      const res = await call("POST", BASE, { key: g.key, body });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    expect((await getPage(g.key, BASE)).data).toEqual([]);
  });
});

describe("invoice numbers", () => {
  it("are sequential with no gaps under 20 concurrent creates, with refused creates among them taking none", async () => {
    const g = await createGallery();
    const good = Array.from({ length: 20 }, (_, i) =>
      call("POST", BASE, { key: g.key, body: { subtotal_cents: 1000 + i } }),
    );
    const refused = Array.from({ length: 10 }, () =>
      call("POST", BASE, { key: g.key, body: { subtotal_cents: 10, discount_cents: 11 } }),
    );
    const responses = await Promise.all([...good, ...refused]);
    expect(responses.map((r) => r.status)).toEqual([...good.map(() => 201), ...refused.map(() => 400)]);
    const numbers = await Promise.all(
      responses.slice(0, 20).map(async (r) => (await readJson(Invoice, r)).invoice_number),
    );
    expect(numbers.sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(6, "0")}`),
    );
    const other = await createGallery();
    expect((await createInvoice(other, { subtotal_cents: 1 })).invoice_number).toBe("INV-000001");
    expect((await createInvoice(g, { status: "draft", subtotal_cents: 1 })).invoice_number).toBe(
      "INV-000021",
    );
  });

  it("pass six digits without wrapping", async () => {
    const g = await createGallery();
    await db().execute(sql`insert into invoice_sequences (gallery_id, last_number) values (${g.id}, 999999)`);
    expect((await createInvoice(g, { subtotal_cents: 1 })).invoice_number).toBe("INV-1000000");
  });

  it("a retried create with the same Idempotency-Key replays: one invoice, one number, one pair of events", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "invoice-once" };
    const body = { subtotal_cents: 5000 };
    const first = await createInvoice(g, body, headers);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("POST", BASE, { key: g.key, body, headers });
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(await again.json()).toEqual(first);
    expect((await getPage(g.key, BASE)).data).toEqual([first]);
    expect(await invoiceEvents(g.id)).toHaveLength(2);
    const reused = await call("POST", BASE, { key: g.key, body: { subtotal_cents: 5001 }, headers });
    await expectProblem(reused, 400, "idempotency_key_reused");
    expect((await createInvoice(g, body)).invoice_number).toBe("INV-000002");
  });
});

describe("security", () => {
  it("create: 401 without a key; 403 without sales:create, and for a viewer", async () => {
    const g = await createGallery();
    const body = { subtotal_cents: 1 };
    await expectProblem(await call("POST", BASE, { body }), 401, "unauthenticated");
    const key = await g.keyWith(["sales:read", "sales:update"]);
    const res = await call("POST", BASE, { key, body });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "sales:create",
    ]);
    const viewer = await memberSession(g, "viewer");
    await expectProblem(await call("POST", BASE, { key: viewer.token, body }), 403, "forbidden");
    const editor = await memberSession(g, "editor");
    expect((await call("POST", BASE, { key: editor.token, body })).status).toBe(201);
  });

  it("get: 404 for another gallery's invoice and an unknown one; 403 without sales:read; a viewer reads", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const invoice = await createInvoice(g, { subtotal_cents: 1 });
    const path = `${BASE}/${invoice.id}`;
    await expectProblem(await call("GET", path, { key: other.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${newId("inv")}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/sale_01jd4xk9v2c7h8m3n5p6q7r8s9`, { key: g.key }), 400);
    await expectProblem(await call("GET", path), 401, "unauthenticated");
    await expectProblem(
      await call("GET", path, { key: await g.keyWith(["contacts:read"]) }),
      403,
      "forbidden",
    );
    expect((await call("GET", path, { key: await g.keyWith(["sales:read"]) })).status).toBe(200);
    const viewer = await memberSession(g, "viewer");
    expect((await call("GET", path, { key: viewer.token })).status).toBe(200);
  });
});
