import { describe, expect, it } from "vitest";
import { timelineEntries } from "../../services/artworks/timeline";

/** timelineEntries: the timeline entries an artwork change implies (a pure function). */

const before = {
  id: "art_01jd4xk9v2c7h8m3n5p6q7r8s9",
  title: "Harbour at dusk",
  location_id: "loc_01jd4xk9v2c7h8m3n5p6q7r8s0",
  price_cents: 1_250_000,
  currency: "USD",
  ownership_status: "owned",
  availability_state: "available",
};

describe("timelineEntries", () => {
  it("implies nothing for a change of other fields, or of these fields to the values they had", () => {
    expect(timelineEntries(before, { title: "Renamed", medium: "Oil" })).toEqual([]);
    expect(
      timelineEntries(before, {
        location_id: before.location_id,
        price_cents: before.price_cents,
        currency: "USD",
        ownership_status: "owned",
        availability_state: "available",
      }),
    ).toEqual([]);
    expect(timelineEntries(before, { price_cents: undefined })).toEqual([]);
  });

  it("moved: from one location to another, to a first one, and cleared; names replace ids when given", () => {
    const to = "loc_01jd4xk9v2c7h8m3n5p6q7r8s1";
    expect(timelineEntries(before, { location_id: to })).toEqual([
      {
        eventType: "moved",
        summary: `Moved from ${before.location_id} to ${to}.`,
        metadata: { from: { location_id: before.location_id }, to: { location_id: to } },
      },
    ]);
    const names = { [before.location_id]: "Main gallery", [to]: "Storage B" };
    expect(timelineEntries(before, { location_id: to }, names)[0]!.summary).toBe(
      "Moved from Main gallery to Storage B.",
    );
    expect(timelineEntries({ ...before, location_id: null }, { location_id: to }, names)[0]!.summary).toBe(
      "Moved to Storage B.",
    );
    const cleared = timelineEntries(before, { location_id: null }, names)[0]!;
    expect(cleared.summary).toBe("Location cleared (was Main gallery).");
    expect(cleared.metadata).toEqual({
      from: { location_id: before.location_id },
      to: { location_id: null },
    });
  });

  it("price_changed: a new amount, a new currency, a first price and a removed one", () => {
    expect(timelineEntries(before, { price_cents: 1_400_000 })).toEqual([
      {
        eventType: "price_changed",
        summary: "Price changed from $12,500.00 to $14,000.00.",
        metadata: {
          from: { price_cents: 1_250_000, currency: "USD" },
          to: { price_cents: 1_400_000, currency: "USD" },
        },
      },
    ]);
    expect(timelineEntries(before, { currency: "EUR" })[0]!.summary).toBe(
      "Price changed from $12,500.00 to €12,500.00.",
    );
    expect(timelineEntries({ ...before, price_cents: null }, { price_cents: 98_000 })[0]!.summary).toBe(
      "Priced at $980.00.",
    );
    expect(timelineEntries(before, { price_cents: null })[0]).toMatchObject({
      summary: "Price removed (was $12,500.00).",
      metadata: { to: { price_cents: null, currency: "USD" } },
    });
    expect(timelineEntries({ ...before, price_cents: null }, { currency: "JPY" })[0]!.summary).toBe(
      "Currency changed from USD to JPY.",
    );
    expect(timelineEntries(before, { price_cents: 100_000, currency: "JPY" })[0]!.summary).toBe(
      "Price changed from $12,500.00 to ¥1,000.",
    );
  });

  it("consigned when ownership becomes consigned; ownership_changed for every other ownership change", () => {
    expect(timelineEntries(before, { ownership_status: "consigned" })).toEqual([
      {
        eventType: "consigned",
        summary: "Taken on consignment (was owned by the gallery).",
        metadata: { from: { ownership_status: "owned" }, to: { ownership_status: "consigned" } },
      },
    ]);
    const consigned = { ...before, ownership_status: "consigned" };
    expect(timelineEntries(consigned, { ownership_status: "owned" })).toEqual([
      {
        eventType: "ownership_changed",
        summary: "Ownership changed from on consignment to owned by the gallery.",
        metadata: { from: { ownership_status: "consigned" }, to: { ownership_status: "owned" } },
      },
    ]);
    expect(timelineEntries(before, { ownership_status: "co_owned" })[0]!.summary).toBe(
      "Ownership changed from owned by the gallery to co-owned.",
    );
  });

  it("availability_changed with both states in words", () => {
    expect(timelineEntries(before, { availability_state: "on_hold" })).toEqual([
      {
        eventType: "availability_changed",
        summary: "Availability changed from available to on hold.",
        metadata: { from: { availability_state: "available" }, to: { availability_state: "on_hold" } },
      },
    ]);
  });

  it("one entry per kind of change, in a fixed order, for a change that does several things", () => {
    const entries = timelineEntries(before, {
      availability_state: "sold",
      ownership_status: "co_owned",
      price_cents: 1,
      location_id: null,
      title: "Sold",
    });
    expect(entries.map((e) => e.eventType)).toEqual([
      "moved",
      "price_changed",
      "ownership_changed",
      "availability_changed",
    ]);
  });
});
