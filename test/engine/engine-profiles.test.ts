import { describe, expect, it } from "vitest";
import { loadContactProfiles } from "../../db/queries/engine-profiles";
import { judgeRubric, readRubric } from "../../lib/engine/rubric";
import { call, createGallery, db, type TestGallery } from "../helpers/gallery";

/** The rubric judge's profile loader, over a contact whose history is written through the API. */

async function created(g: TestGallery, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await call("POST", path, { key: g.key, body });
  const json = (await res.json()) as { id: string };
  expect(res.status, `${path}: ${JSON.stringify(json)}`).toBe(201);
  return json.id;
}

async function artwork(g: TestGallery, artistId: string, title: string, medium: string, year: number) {
  return created(g, "/gallery/artworks", {
    title,
    medium,
    year,
    height_cm: 40,
    width_cm: 30,
    artists: [{ artist_id: artistId }],
  });
}

describe("loadContactProfiles", () => {
  it("loads a contact's profile, notes, sales with their works, interactions, engagement and tags, with the country's source", async () => {
    const g = await createGallery();
    const artist = await created(g, "/gallery/artists", { name: "Ilse Marten" });
    const etching = await artwork(g, artist, "Fold", "Etching, edition of 20", 2021);
    const drawing = await artwork(g, artist, "Low Tide", "charcoal on paper", 2022);
    const canvas = await artwork(g, artist, "White Field", "oil on linen", 2023);
    const tag = await created(g, "/gallery/tags", { name: "Edinburgh show", scope: "contact" });

    const contact = await created(g, "/gallery/contacts", {
      name: "Morag Sinclair",
      email: "morag@studio.fr",
      phone: "+44 7700 900123",
      notes: "Based in Edinburgh, collects Scottish colourists",
      contact_type: "collector",
      lead_status: "active",
      tag_ids: [tag],
      collector_profile: {
        collecting_focus: "Works on paper, mostly etchings",
        wishlist_notes: "A large Marten drawing",
        budget_band: "5k-25k",
        vip: true,
      },
    });
    const sale = await created(g, "/gallery/sales", {
      contact_id: contact,
      artwork_ids: [etching, drawing],
      amount_cents: 600_000,
      currency: "USD",
      sold_at: "2024-03-02T10:00:00.000Z",
    });
    const cancelled = await created(g, "/gallery/sales", {
      contact_id: contact,
      artwork_ids: [canvas],
      amount_cents: 2_500_000,
      currency: "USD",
      sold_at: "2025-06-01T10:00:00.000Z",
      status: "cancelled",
    });
    const invoice = await created(g, "/gallery/invoices", {
      sale_id: sale,
      tax_address_line1: "12 Heriot Row",
      tax_address_city: "Edinburgh",
      tax_address_postal_code: "EH3 6HP",
      tax_address_country: "GB",
    });
    const interaction = await created(g, `/gallery/contacts/${contact}/interactions`, {
      type: "visit",
      summary: "Came to the opening, looked at the drawers of works on paper",
      occurred_at: "2025-09-12T18:00:00.000Z",
    });
    const engagement = await created(g, `/gallery/contacts/${contact}/engagements`, {
      kind: "email_opened",
      occurred_at: "2026-01-05T08:00:00.000Z",
    });
    const note = await created(g, `/gallery/contacts/${contact}/private-notes`, {
      body: "Prefers calls before 10am",
    });

    // A second contact with only a phone: the country comes from its calling code.
    const phoned = await created(g, "/gallery/contacts", { name: "Lukas Vogel", phone: "+49 30 1234567" });
    // A contact of another gallery is not loaded, even when its id is asked for.
    const other = await createGallery();
    const stranger = await created(other, "/gallery/contacts", {
      name: "Not ours",
      phone: "+33 1 23 45 67 89",
    });

    const profiles = await loadContactProfiles(db(), g.id, [contact, phoned, stranger, contact]);
    expect(profiles.map((p) => p.id).sort()).toEqual([contact, phoned].sort());
    const p = profiles.find((x) => x.id === contact)!;

    expect(p).toMatchObject({
      name: "Morag Sinclair",
      contactType: "collector",
      leadStatus: "active",
      vip: true,
      city: "Edinburgh",
      country: "GB",
      tags: ["Edinburgh show"],
    });
    expect(p.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The address came from the invoice, and the note that says so cites it.
    expect(p.notes[0]).toMatchObject({ id: invoice, kind: "billing_address" });
    expect(p.notes[0]!.text).toContain("Edinburgh");
    expect(p.notes.map((n) => n.kind)).toEqual(
      expect.arrayContaining(["notes", "collecting_focus", "wishlist_notes", "budget_band", "private_note"]),
    );
    expect(p.notes.find((n) => n.kind === "private_note")).toMatchObject({
      id: note,
      text: "Prefers calls before 10am",
    });

    // One entry per work of a sale, the amount shared; the cancelled sale is loaded with its status.
    const sold = p.sales.filter((s) => s.id === sale);
    expect(sold.map((s) => s.artwork?.id)).toEqual([etching, drawing]);
    expect(sold.map((s) => s.priceCents)).toEqual([300_000, 300_000]);
    expect(sold[0]).toMatchObject({ currency: "USD", status: "completed", at: "2024-03-02T10:00:00.000Z" });
    expect(sold[0]!.artwork).toMatchObject({
      title: "Fold",
      artistName: "Ilse Marten",
      medium: "Etching, edition of 20",
      year: 2021,
    });
    expect(p.sales.find((s) => s.id === cancelled)).toMatchObject({
      status: "cancelled",
      priceCents: 2_500_000,
    });

    expect(p.interactions).toEqual([
      {
        id: interaction,
        at: "2025-09-12T18:00:00.000Z",
        type: "visit",
        direction: null,
        summary: expect.stringContaining("opening"),
        artwork: null,
      },
    ]);
    expect(p.engagements).toEqual([
      { id: engagement, at: "2026-01-05T08:00:00.000Z", kind: "email_opened", artworkId: null },
    ]);

    const q = profiles.find((x) => x.id === phoned)!;
    expect(q).toMatchObject({
      country: "DE",
      city: null,
      vip: false,
      sales: [],
      interactions: [],
      engagements: [],
      tags: [],
    });
    expect(q.notes).toEqual([{ id: phoned, kind: "phone", text: "+49 30 1234567", at: null }]);

    // The loaded profile is what the judge reads: the invoice decides the place, the etching the medium.
    const now = new Date("2026-11-27T00:00:00Z");
    const reading = readRubric("collectors in the UK who bought works on paper but never a painting", now);
    if (!reading.readable) throw new Error(reading.reason);
    const verdict = judgeRubric(reading, p, now)!;
    expect(verdict.verdict).toBe(true);
    expect(verdict.probability).toBeGreaterThanOrEqual(0.6);
    expect(verdict.reasons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "invoice", id: invoice, holds: true }),
        expect.objectContaining({ kind: "sale", id: sale, holds: true }),
      ]),
    );
    const phonedVerdict = judgeRubric(
      readRubric("contacts in Germany", now) as Extract<typeof reading, { readable: true }>,
      q,
      now,
    )!;
    expect(phonedVerdict.verdict).toBe(true);
    expect(phonedVerdict.reasons[0]!.label).toContain("phone");
  });

  it("loads a sold or asked-about work's tags, description and artist's years: its style", async () => {
    const g = await createGallery();
    const artist = await created(g, "/gallery/artists", {
      name: "Rut Alm",
      birth_year: 1931,
      death_year: 2004,
    });
    const tag = await created(g, "/gallery/tags", { name: "Minimalism", scope: "artwork" });
    const grid = await created(g, "/gallery/artworks", {
      title: "Grid IV",
      medium: "Acrylic on canvas",
      artists: [{ artist_id: artist }],
      tag_ids: [tag],
    });
    const veil = await created(g, "/gallery/artworks", {
      title: "Veil",
      medium: "Acrylic on canvas",
      description: "Stained colour fields of ochre.",
      artists: [{ artist_id: artist }],
    });
    const contact = await created(g, "/gallery/contacts", { name: "Ebba Lund", contact_type: "collector" });
    const sale = await created(g, "/gallery/sales", {
      contact_id: contact,
      artwork_ids: [grid],
      amount_cents: 900_000,
      currency: "USD",
      sold_at: "2025-03-02T10:00:00.000Z",
    });
    const asked = await created(g, `/gallery/contacts/${contact}/interactions`, {
      type: "email",
      direction: "inbound",
      summary: "Is it still available?",
      artwork_id: veil,
      occurred_at: "2026-02-01T10:00:00.000Z",
    });
    const [p] = await loadContactProfiles(db(), g.id, [contact]);
    expect(p!.sales[0]!.artwork).toMatchObject({
      id: grid,
      tags: ["Minimalism"],
      description: null,
      artistBirthYear: 1931,
      artistDeathYear: 2004,
    });
    expect(p!.interactions[0]!.artwork).toMatchObject({
      id: veil,
      description: "Stained colour fields of ochre.",
    });

    const now = new Date("2026-11-27T00:00:00Z");
    const judge = (text: string) => {
      const reading = readRubric(text, now);
      if (!reading.readable) throw new Error(reading.reason);
      return judgeRubric(reading, p!, now)!;
    };
    const minimal = judge("collectors of minimal art");
    expect(minimal.verdict).toBe(true);
    expect(minimal.reasons).toContainEqual(expect.objectContaining({ kind: "sale", id: sale, holds: true }));
    const field = judge("contacts interested in colour-field painting");
    expect(field.verdict).toBe(true);
    expect(field.reasons).toContainEqual(
      expect.objectContaining({ kind: "interaction", id: asked, holds: true }),
    );
    expect(judge("collectors of pop art").verdict).toBe(false);
  });

  it("returns nothing for no ids", async () => {
    const g = await createGallery();
    expect(await loadContactProfiles(db(), g.id, [])).toEqual([]);
  });
});
