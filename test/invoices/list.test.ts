import { beforeAll, describe, expect, it } from "vitest";
import { newContact } from "../contact-interactions/helpers";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  BASE,
  createInvoice,
  getBilling,
  getInvoice,
  type InvoiceBody,
  invoiceEvents,
  newSale,
  patchInvoice,
} from "./helpers";

/** GET /gallery/invoices (filters, sorts, pages) and POST /gallery/invoices/{id}/archive and /restore. */

const today = () => new Date().toISOString().slice(0, 10);

/** Every invoice of a list walk (limit 2, so cursors are crossed), in order. */
async function walk(g: TestGallery, query: Record<string, string> = {}): Promise<InvoiceBody[]> {
  const pages = await walkPages<InvoiceBody>(g.key, BASE, { limit: "2", ...query });
  return pages.flatMap((p) => p.data);
}

const ids = (invoices: InvoiceBody[]) => invoices.map((i) => i.id);

/** Byte order, as the C collation and id comparisons in keyset order compare. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe("GET /gallery/invoices", () => {
  let g: TestGallery;
  /** Every invoice of the gallery as last written, in creation order. */
  let all: InvoiceBody[];
  let buyer: string;
  let sale: string;
  /** Each invoice's billed contact, as its billing read says. */
  let billed: Map<string, string | null>;

  beforeAll(async () => {
    g = await createGallery();
    const s = await newSale(g, { buyer: "Ruth Asawa", amount_cents: 800_000 });
    sale = s.id;
    buyer = s.contactId;
    const other = await newContact(g, "Noguchi");
    const made: InvoiceBody[] = [];
    const add = async (body: Record<string, unknown>, then?: Record<string, unknown>) => {
      const invoice = await createInvoice(g, body);
      made.push(then ? await patchInvoice(g, invoice.id, then) : invoice);
    };
    await add({ sale_id: sale, issued_date: "2024-01-10", due_date: "2024-02-09" }); // past due, unpaid
    await add({ sale_id: sale, issued_date: "2024-01-15", due_date: "2024-02-14" }, { amount_paid_cents: 1 });
    await add(
      { contact_id: other, subtotal_cents: 10, issued_date: "2024-02-01", due_date: "2024-03-02" },
      {
        status: "paid",
      },
    );
    await add({ status: "draft", subtotal_cents: 20, due_date: "2020-01-01" }); // a draft is never overdue
    await add({ subtotal_cents: 30, issued_date: "2024-03-01", due_date: "2099-01-01" });
    await add(
      { contact_id: other, subtotal_cents: 40, issued_date: "2024-03-05", due_date: "2024-03-05" },
      {
        status: "void",
      },
    );
    await add({ status: "draft", subtotal_cents: 50 });
    await add({ contact_id: buyer, subtotal_cents: 60, issued_date: "2024-02-01" });
    // Archived: one past due, one not.
    await add({ subtotal_cents: 70, issued_date: "2023-12-01", due_date: "2023-12-31" });
    await add({ subtotal_cents: 80, issued_date: "2024-01-20" });
    for (const invoice of made.slice(-2)) {
      const res = await call("POST", `${BASE}/${invoice.id}/archive`, { key: g.key });
      made[made.indexOf(invoice)] = (await res.json()) as InvoiceBody;
    }
    // A later change moves one invoice to the front of sort=updated.
    made[0] = await patchInvoice(g, made[0]!.id, { notes: "chased" });
    all = made;
    billed = new Map();
    for (const invoice of made) billed.set(invoice.id, (await getBilling(g, invoice.id)).contact_id);
  });

  const live = () => all.filter((i) => i.archived_at === null);
  const newest = (list: InvoiceBody[]) =>
    [...list].sort((a, b) => cmp(b.created_at, a.created_at) || cmp(b.id, a.id));
  const overdue = (i: InvoiceBody) =>
    (i.status === "unpaid" || i.status === "partially_paid") && i.due_date !== null && i.due_date < today();

  it("newest first by default, archived left out; every page is at most `limit` long", async () => {
    expect(ids(await walk(g))).toEqual(ids(newest(live())));
    expect(ids(await walk(g, { dir: "asc" }))).toEqual(ids(newest(live()).reverse()));
    const first = await getPage<InvoiceBody>(g.key, BASE, "limit=3");
    expect(first.data).toHaveLength(3);
    expect(first.next_cursor).toEqual(expect.any(String));
  });

  it.each([
    ["status=unpaid", (i: InvoiceBody) => i.status === "unpaid"],
    ["status=partially_paid", (i: InvoiceBody) => i.status === "partially_paid"],
    ["status=paid", (i: InvoiceBody) => i.status === "paid"],
    ["status=draft", (i: InvoiceBody) => i.status === "draft"],
    ["status=void", (i: InvoiceBody) => i.status === "void"],
    ["contact_id", (i: InvoiceBody, c: Ctx) => c.billed.get(i.id) === c.buyer],
    ["sale_id", (i: InvoiceBody, c: Ctx) => i.sale_id === c.sale],
    ["issued_from=2024-02-01", (i: InvoiceBody) => i.issued_date !== null && i.issued_date >= "2024-02-01"],
    ["issued_to=2024-01-15", (i: InvoiceBody) => i.issued_date !== null && i.issued_date <= "2024-01-15"],
    ["due_from=2024-02-14", (i: InvoiceBody) => i.due_date !== null && i.due_date >= "2024-02-14"],
    ["due_to=2024-03-02", (i: InvoiceBody) => i.due_date !== null && i.due_date <= "2024-03-02"],
    ["overdue=true", overdue],
    ["overdue=false", (i: InvoiceBody) => !overdue(i)],
  ])("filter %s alone", async (query, keep) => {
    const ctx = { buyer, sale, billed };
    const q = new URLSearchParams(
      query === "contact_id" ? { contact_id: buyer } : query === "sale_id" ? { sale_id: sale } : query,
    );
    const expected = newest(live().filter((i) => keep(i, ctx)));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await walk(g, Object.fromEntries(q)))).toEqual(ids(expected));
  });

  it("filters combine with AND", async () => {
    const query = { sale_id: sale, overdue: "true", issued_from: "2024-01-11" };
    const expected = newest(
      live().filter((i) => i.sale_id === sale && overdue(i) && i.issued_date! >= "2024-01-11"),
    );
    expect(ids(expected)).toHaveLength(1);
    expect(ids(await walk(g, query))).toEqual(ids(expected));
    const window = {
      issued_from: "2024-01-15",
      issued_to: "2024-02-01",
      due_to: "2024-03-02",
      status: "paid",
    };
    const inWindow = newest(
      live().filter(
        (i) =>
          i.status === "paid" &&
          i.issued_date! >= "2024-01-15" &&
          i.issued_date! <= "2024-02-01" &&
          i.due_date !== null &&
          i.due_date <= "2024-03-02",
      ),
    );
    expect(ids(inWindow)).toHaveLength(1);
    expect(ids(await walk(g, window))).toEqual(ids(inWindow));
    expect(await walk(g, { contact_id: buyer, status: "void" })).toEqual([]);
  });

  it("archived: exclude (default, or false), include, only (or true); combined with other filters", async () => {
    const archived = newest(all.filter((i) => i.archived_at !== null));
    expect(archived).toHaveLength(2);
    expect(ids(await walk(g, { archived: "exclude" }))).toEqual(ids(newest(live())));
    expect(ids(await walk(g, { archived: "false" }))).toEqual(ids(newest(live())));
    expect(ids(await walk(g, { archived: "include" }))).toEqual(ids(newest(all)));
    expect(ids(await walk(g, { archived: "only" }))).toEqual(ids(archived));
    expect(ids(await walk(g, { archived: "true" }))).toEqual(ids(archived));
    expect(ids(await walk(g, { archived: "only", overdue: "true" }))).toEqual(ids(archived.filter(overdue)));
  });

  it("sort=updated follows the last change", async () => {
    const expected = [...live()].sort((a, b) => cmp(b.updated_at, a.updated_at) || cmp(b.id, a.id));
    const got = await walk(g, { sort: "updated" });
    expect(ids(got)).toEqual(ids(expected));
    expect(got[0]!.notes).toBe("chased");
  });

  it.each([
    ["issued", "issued_date"],
    ["due", "due_date"],
  ] as const)("sort=%s orders by the date, invoices without one last in both directions", async (sort, field) => {
    const dated = live().filter((i) => i[field] !== null);
    const undated = live().filter((i) => i[field] === null);
    expect(undated.length).toBeGreaterThan(0);
    const byDate = (dir: 1 | -1) => (a: InvoiceBody, b: InvoiceBody) =>
      dir * (cmp(a[field]!, b[field]!) || cmp(a.id, b.id));
    const byId = (dir: 1 | -1) => (a: InvoiceBody, b: InvoiceBody) => dir * cmp(a.id, b.id);
    expect(ids(await walk(g, { sort }))).toEqual([
      ...ids([...dated].sort(byDate(-1))),
      ...ids([...undated].sort(byId(-1))),
    ]);
    expect(ids(await walk(g, { sort, dir: "asc" }))).toEqual([
      ...ids([...dated].sort(byDate(1))),
      ...ids([...undated].sort(byId(1))),
    ]);
  });

  it.each([
    ["status", "status=overdue"],
    ["status", "status=PAID"],
    ["issued_from", "issued_from=2023-02-29"],
    ["issued_to", "issued_to=2024-01-01T00:00Z"],
    ["due_from", "due_from=2024-1-1"],
    ["due_to", "due_to=yesterday"],
    ["overdue", "overdue=yes"],
    ["archived", "archived=maybe"],
    ["contact_id", "contact_id=nope"],
    ["sale_id", "sale_id=con_01jd4xk9v2c7h8m3n5p6q7r8s9"],
    ["sort", "sort=number"],
    ["dir", "dir=up"],
  ])("400 naming %s (case %#)", async (field, query) => {
    await expectProblem(await call("GET", `${BASE}?${query}`, { key: g.key }), 400, "invalid_request", {
      field,
    });
  });

  it("shows only this gallery's invoices; 401; 403 without sales:read", async () => {
    const other = await createGallery();
    expect(await getPage(other.key, BASE)).toEqual({ data: [], next_cursor: null });
    expect(await getPage(other.key, BASE, `contact_id=${buyer}&archived=include`)).toEqual({
      data: [],
      next_cursor: null,
    });
    await expectProblem(await call("GET", BASE), 401, "unauthenticated");
    const res = await call("GET", BASE, { key: await g.keyWith(["contacts:read", "sales:update"]) });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "sales:read",
    ]);
    expect((await getPage(await g.keyWith(["sales:read"]), BASE)).data).toHaveLength(live().length);
  });
});

interface Ctx {
  buyer: string;
  sale: string;
  billed: Map<string, string | null>;
}

describe("POST /gallery/invoices/{id}/archive and /restore", () => {
  it("shelve and unshelve; repeats change nothing and emit nothing", async () => {
    const g = await createGallery();
    const invoice = await createInvoice(g, { subtotal_cents: 100 });
    const path = `${BASE}/${invoice.id}`;
    const archived = await call("POST", `${path}/archive`, { key: g.key });
    expect(archived.status).toBe(200);
    const body = (await archived.json()) as InvoiceBody;
    expect(body).toEqual({ ...invoice, archived_at: body.updated_at, updated_at: body.updated_at });
    expect(Date.parse(body.updated_at)).toBeGreaterThan(Date.parse(invoice.updated_at));
    expect((await getPage(g.key, BASE)).data).toEqual([]);
    expect(await getInvoice(g, invoice.id)).toEqual(body);
    const again = await call("POST", `${path}/archive`, { key: g.key });
    expect([again.status, await again.json()]).toEqual([200, body]);

    // An archived invoice still takes payments.
    const paid = await patchInvoice(g, invoice.id, { status: "paid" });
    expect(paid.archived_at).toBe(body.archived_at);

    const restored = await call("POST", `${path}/restore`, { key: g.key });
    const back = (await restored.json()) as InvoiceBody;
    expect([restored.status, back.archived_at, back.status]).toEqual([200, null, "paid"]);
    expect((await getPage<InvoiceBody>(g.key, BASE)).data.map((i) => i.id)).toEqual([invoice.id]);
    const twice = await call("POST", `${path}/restore`, { key: g.key });
    expect(await twice.json()).toEqual(back);

    const events = (await invoiceEvents(g.id)).filter(
      (e) => e.type === "invoice.archived" || e.type === "invoice.restored",
    );
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["invoice.archived", { object: body }],
      ["invoice.restored", { object: back }],
    ]);
  });

  it("replays a retried archive with the same Idempotency-Key, even after a restore", async () => {
    const g = await createGallery();
    const invoice = await createInvoice(g, { subtotal_cents: 100 });
    const headers = { "Idempotency-Key": "archive-once" };
    const first = await call("POST", `${BASE}/${invoice.id}/archive`, { key: g.key, headers });
    const archived = await first.json();
    await call("POST", `${BASE}/${invoice.id}/restore`, { key: g.key });
    const again = await call("POST", `${BASE}/${invoice.id}/archive`, { key: g.key, headers });
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(await again.json()).toEqual(archived);
    expect((await getInvoice(g, invoice.id)).archived_at).toBeNull();
  });

  it("404 for another gallery's invoice; 401; 403 without sales:update", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const invoice = await createInvoice(g, { subtotal_cents: 100 });
    for (const action of ["archive", "restore"]) {
      const path = `${BASE}/${invoice.id}/${action}`;
      await expectProblem(await call("POST", path, { key: other.key }), 404, "not_found");
      await expectProblem(await call("POST", path), 401, "unauthenticated");
      const key = await g.keyWith(["sales:read", "sales:create", "sales:delete"]);
      await expectProblem(await call("POST", path, { key }), 403, "forbidden");
    }
    expect(await getInvoice(g, invoice.id)).toEqual(invoice);
  });
});
