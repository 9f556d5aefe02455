import { describe, expect, it } from "vitest";
import { idPattern, newId } from "../../lib/ids";

describe("newId", () => {
  it("mints ids that sort in the order they were minted, also within one millisecond", () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 0, 0);
    const ids = Array.from({ length: 1000 }, (_, i) => newId(i % 2 ? "evt" : "art", now).slice(4));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("orders by time first: a later millisecond sorts after, whatever the random part", () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 1, 0);
    const first = newId("evt", now);
    const second = newId("evt", now + 1);
    expect(second > first).toBe(true);
    expect(first).toMatch(idPattern);
    expect(second).toMatch(idPattern);
  });

  it("a backdated id leaves the sequence of the current millisecond in order", () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 2, 0);
    const a = newId("evt", now);
    const backdated = newId("evt", now - 60_000);
    const b = newId("evt", now);
    expect(backdated < a).toBe(true);
    expect(b > a).toBe(true);
  });

  it("ids minted for other instants in between, later ones too, leave a millisecond's sequence in order", () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 4, 0);
    const a = newId("evt", now);
    const others = Array.from({ length: 20 }, (_, i) => newId("evt", now + (i % 2 ? 1 : -1) * 3_600_000 * i));
    const b = newId("evt", now);
    expect(b > a).toBe(true);
    expect(b.slice(0, 14)).toBe(a.slice(0, 14));
    expect(others.every((id) => id !== a && id !== b)).toBe(true);
  });

  it("keeps the random part unpredictable across milliseconds", () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 3, 0);
    const tails = new Set(Array.from({ length: 50 }, (_, i) => newId("evt", now + i * 10).slice(-16)));
    expect(tails.size).toBe(50);
  });
});
