import { describe, expect, it } from "vitest";
import { judgeRubric, readRubric } from "../../lib/engine/rubric";
import { classifyMedium } from "../../lib/engine/rubric-media";
import { countryFromEmail, countryFromPhone } from "../../lib/engine/rubric-places";
import type { ContactProfile, RubricReading, RubricVerdict } from "../../lib/engine/types";
import { scoreRubrics } from "../../scripts/engine-score/rubric";

/** Segment rubrics: reading described_as, judging contacts per predicate family, and the labelled set's score. */

const NOW = new Date("2026-11-27T00:00:00Z");

type Sale = ContactProfile["sales"][number];

function profile(over: Partial<ContactProfile> = {}): ContactProfile {
  return {
    id: "con_test",
    name: "Test Contact",
    company: null,
    contactType: "collector",
    leadStatus: "active",
    vip: false,
    city: null,
    region: null,
    country: null,
    emailConsent: "granted",
    createdAt: "2020-01-01T00:00:00.000Z",
    notes: [],
    sales: [],
    interactions: [],
    engagements: [],
    tags: [],
    ...over,
  };
}

let n = 0;
function sale(
  at: string,
  medium: string | null,
  priceCents: number | null = 500_000,
  extra: Partial<Sale> = {},
): Sale {
  n++;
  return {
    id: `sale_${n}`,
    at: `${at}T12:00:00.000Z`,
    priceCents,
    currency: "GBP",
    status: "completed",
    artwork: {
      id: `art_${n}`,
      title: `Work ${n}`,
      artistName: "Anon",
      medium,
      year: 2020,
      heightCm: 30,
      widthCm: 40,
    },
    ...extra,
  };
}

const billingIn = (city: string, country: string) => ({
  city,
  country,
  notes: [{ id: "inv_1", kind: "billing_address", text: `1 High St, ${city}, ${country}`, at: null }],
});

function readable(text: string): Extract<RubricReading, { readable: true }> {
  const r = readRubric(text, NOW);
  if (!r.readable) throw new Error(`unreadable: ${text}: ${r.reason}`);
  return r;
}

function judge(text: string, p: ContactProfile): RubricVerdict | null {
  return judgeRubric(readable(text), p, NOW);
}

describe("media families", () => {
  it.each([
    ["archival pigment print", "photography"],
    ["Gelatin silver print, vintage", "photography"],
    ["Etching and aquatint, ed. 12/30", "print"],
    ["Linocut on Japanese tissue", "print"],
    ["acrylic on paper", "paper"],
    ["Oil pastel on paper", "paper"],
    ["gouache", "paper"],
    ["oil on linen", "painting"],
    ["Acrylic and spray paint on canvas", "painting"],
    ["hand-woven linen and wool", "textile"],
    ["glazed stoneware", "ceramics"],
    ["three-channel HD video, colour, sound", "video"],
    ["patinated bronze", "sculpture"],
  ])("%s is %s", (medium, family) => {
    expect(classifyMedium(medium).family).toBe(family);
  });

  it("counts a print as a work on paper, and knows nothing of an empty medium", () => {
    expect(classifyMedium("lithograph").families).toEqual(["print", "paper"]);
    expect(classifyMedium(null).family).toBeNull();
    expect(classifyMedium("found object").family).toBeNull();
  });
});

describe("reading rubrics", () => {
  it.each([
    ["people who'd love the next show", "love"],
    ["our best friends", "best"],
    ["anyone with good taste", "good"],
    ["collectors who might flip work", "might"],
    ["people with big walls", "big"],
    ["the top 10 spenders", "top 10 spenders"],
  ])("leaves %s unreadable, naming the words", (text, word) => {
    const r = readRubric(text, NOW);
    expect(r.readable).toBe(false);
    if (!r.readable) expect(r.reason).toContain(word);
  });

  it("refuses an empty rubric", () => {
    expect(readRubric("   ", NOW)).toMatchObject({ readable: false, reason: "the rubric is empty" });
  });

  it("reads what it can around a time it cannot place, names the words it left, and is less sure", () => {
    const r = readable("collectors who bought a painting around the time of the fair");
    expect(r.summary).toBe('contact type is collector; bought painting; not read: "around time fair"');
    const buyer = profile({ sales: [sale("2025-03-01", "Oil on canvas")] });
    const plain = judge("collectors who bought a painting", buyer)!;
    const partly = judge("collectors who bought a painting around the time of the fair", buyer)!;
    expect(partly.verdict).toBe(true);
    expect(partly.probability).toBeLessThan(plain.probability);
    expect(readRubric("around the time of the fair", NOW)).toMatchObject({ readable: false });
  });

  it("says what it read", () => {
    const r = readable("UK collectors who bought at least 2 photographs in the last 18 months");
    expect(r.summary).toContain("located in UK");
    expect(r.summary).toContain("contact type is collector");
    expect(r.summary).toContain("count >= 2");
    expect(r.summary).toContain("in the last 18 months");
  });
});

describe("places", () => {
  const rubric = "collectors in the UK";

  it("decides by the invoice address, surely", () => {
    const v = judge(rubric, profile(billingIn("Glasgow", "GB")))!;
    expect(v.verdict).toBe(true);
    expect(v.probability).toBeGreaterThan(0.9);
    expect(v.reasons.find((r) => r.kind === "invoice")).toMatchObject({ id: "inv_1", holds: true });
  });

  it("is less sure of a country inferred from a phone prefix", () => {
    const p = profile({
      country: "GB",
      notes: [{ id: "con_test", kind: "phone", text: "+44 20 7946 0000", at: null }],
    });
    const v = judge(rubric, p)!;
    expect(v.verdict).toBe(true);
    expect(v.probability).toBeLessThan(0.9);
    expect(v.reasons.some((r) => r.label.includes("phone"))).toBe(true);
  });

  it("reads where someone lives from notes, including two homes", () => {
    const p = profile({
      notes: [{ id: "n1", kind: "notes", text: "Lovely couple, lives between Paris and Geneva.", at: null }],
    });
    expect(judge("clients in Switzerland", p)!.verdict).toBe(true);
    expect(judge("clients in France", p)!.verdict).toBe(true);
    expect(judge("clients in Germany", p)!.verdict).toBe(false);
  });

  it("does not take a place mentioned in passing for an address", () => {
    const p = profile({
      notes: [{ id: "n1", kind: "notes", text: "Met at Frieze London, introduced by Ben.", at: null }],
    });
    expect(judge(rubric, p)).toBeNull();
  });

  it("leaves a contact with no location unjudged, unless another criterion already fails", () => {
    expect(judge(rubric, profile())).toBeNull();
    expect(judge(rubric, profile({ contactType: "press" }))!.verdict).toBe(false);
  });

  it("needs a city for a city, but a different country decides no", () => {
    const phoneOnly = (country: string) =>
      profile({ country, notes: [{ id: "con_test", kind: "phone", text: "+44 7700 900000", at: null }] });
    expect(judge("collectors in London", phoneOnly("GB"))).toBeNull();
    expect(judge("collectors in London", phoneOnly("FR"))!.verdict).toBe(false);
    expect(judge("collectors based in Scotland", profile(billingIn("Edinburgh", "GB")))!.verdict).toBe(true);
    expect(judge("collectors based in Scotland", profile(billingIn("Bristol", "GB")))!.verdict).toBe(false);
  });

  it("reads groups of countries and places outside one", () => {
    expect(judge("EU collectors", profile(billingIn("Dublin", "IE")))!.verdict).toBe(true);
    expect(judge("EU collectors", profile(billingIn("Zurich", "CH")))!.verdict).toBe(false);
    expect(judge("collectors outside the UK", profile(billingIn("Zurich", "CH")))!.verdict).toBe(true);
    expect(judge("German or Austrian collectors", profile(billingIn("Vienna", "AT")))!.verdict).toBe(true);
  });

  it("derives a country from a phone's calling code or an email's country domain", () => {
    expect(countryFromPhone("+852 2123 4567")).toBe("HK");
    expect(countryFromPhone("0044 131 496 0000")).toBe("GB");
    expect(countryFromPhone("020 7946 0000")).toBeNull();
    expect(countryFromEmail("a@studio.co.uk")).toBe("GB");
    expect(countryFromEmail("a@gmail.com")).toBeNull();
    expect(countryFromEmail("a@startup.io")).toBeNull();
  });
});

describe("purchases", () => {
  it("bought works on paper but never a painting", () => {
    const rubric = "collectors who bought works on paper but never a painting";
    const drawing = sale("2023-04-01", "charcoal on paper");
    expect(judge(rubric, profile({ sales: [drawing] }))!.verdict).toBe(true);
    const v = judge(rubric, profile({ sales: [drawing, sale("2024-01-01", "oil on canvas")] }))!;
    expect(v.verdict).toBe(false);
    expect(v.reasons.some((r) => r.kind === "sale" && r.label.includes("oil on canvas"))).toBe(true);
    // A painting on paper is a work on paper, not a painting.
    expect(judge(rubric, profile({ sales: [sale("2023-04-01", "acrylic on paper")] }))!.verdict).toBe(true);
  });

  it("counts only completed sales, and sets the others aside with a reason", () => {
    const p = profile({ sales: [sale("2025-02-01", "bronze", 500_000, { status: "cancelled" })] });
    const v = judge("anyone who bought a sculpture", p)!;
    expect(v.verdict).toBe(false);
    expect(v.reasons.some((r) => r.label.includes("set aside"))).toBe(true);
  });

  it("reads counts and windows", () => {
    const p = profile({
      sales: [sale("2019-05-01", "lithograph"), sale("2021-03-01", "woodcut"), sale("2023-06-01", "C-print")],
    });
    expect(judge("bought at least 3 works", p)!.verdict).toBe(true);
    expect(judge("bought more than three works", p)!.verdict).toBe(false);
    expect(judge("lapsed buyers: two purchases before 2022, nothing since", p)!.verdict).toBe(false);
    expect(judge("lapsed buyers: two purchases before 2024, nothing since", p)!.verdict).toBe(true);
    expect(judge("people who bought prints in 2019 or 2020", p)!.verdict).toBe(true);
    expect(judge("people who bought photography in the last 18 months", p)!.verdict).toBe(false);
    expect(judge("collectors who only ever bought prints", p)!.verdict).toBe(false);
    expect(judge("collectors who haven't bought anything since 2022", p)!.verdict).toBe(false);
    expect(judge("collectors who haven't bought anything since 2023", p)!.verdict).toBe(true);
  });

  it("reads a count past the words describing the works, and after the noun", () => {
    const paintings = (years: number[]) =>
      profile({
        sales: years.map((year, i) =>
          sale(`202${i}-03-01`, "oil on canvas", 900_000, {
            artwork: {
              id: `p${i}`,
              title: `P${i}`,
              artistName: "Anon",
              medium: "oil on canvas",
              year,
              heightCm: 1,
              widthCm: 1,
            },
          }),
        ),
      });
    for (const rubric of [
      "collectors with two or more contemporary paintings",
      "collectors who have bought at least two contemporary paintings",
      "collectors who bought contemporary paintings, two paintings or more",
    ]) {
      expect(readable(rubric).summary, rubric).toContain("count >= 2");
      expect(judge(rubric, paintings([1999, 2012]))!.verdict, rubric).toBe(true);
      expect(judge(rubric, paintings([2012]))!.verdict, rubric).toBe(false);
    }
    // "Contemporary" is when the work was made: 1970 on.
    expect(
      judge("collectors with two or more contemporary paintings", paintings([1955, 2012]))!.verdict,
    ).toBe(false);
    // A unit of time is not a word describing works.
    expect(readable("bought a painting 2 years ago").summary).not.toContain("count");
  });

  it("matches artists whatever the accents, by 'by' or before a noun", () => {
    const p = profile({
      sales: [
        sale("2022-01-01", "oil on canvas", 900_000, {
          artwork: {
            id: "a",
            title: "T",
            artistName: "Tomas Reyes",
            medium: "oil on canvas",
            year: 2021,
            heightCm: 1,
            widthCm: 1,
          },
        }),
      ],
    });
    expect(judge("buyers of Tomás Reyes", p)!.verdict).toBe(true);
    expect(judge("people who own a Tomás Reyes painting", p)!.verdict).toBe(true);
    expect(judge("collectors who own work by Ilse Marten", p)!.verdict).toBe(false);
  });

  it("compares prices across currencies, less surely", () => {
    const eur = sale("2024-01-01", "etching", 150_000, { currency: "EUR" });
    const v = judge("people who bought a print for under £2,000", profile({ sales: [eur] }))!;
    expect(v.verdict).toBe(true);
    expect(v.probability).toBeLessThan(0.95);
    expect(judge("people who bought a print for under €1,000", profile({ sales: [eur] }))!.verdict).toBe(
      false,
    );
  });

  it("first-time buyers this year", () => {
    expect(
      judge("first-time buyers this year", profile({ sales: [sale("2026-03-01", "bronze")] }))!.verdict,
    ).toBe(true);
    expect(
      judge(
        "first-time buyers this year",
        profile({ sales: [sale("2021-03-01", "bronze"), sale("2026-03-01", "bronze")] }),
      )!.verdict,
    ).toBe(false);
  });
});

describe("spend", () => {
  it("totals completed sales in a window", () => {
    const p = profile({
      sales: [sale("2021-01-01", "oil on canvas", 4_000_000), sale("2024-01-01", "oil on canvas", 2_000_000)],
    });
    expect(judge("buyers who have spent over £50k in total", p)!.verdict).toBe(true);
    expect(judge("collectors who spent more than £50,000 since 2022", p)!.verdict).toBe(false);
    expect(judge("clients who spent between £10k and £70k", p)!.verdict).toBe(true);
    expect(judge("collectors whose average purchase is above £25,000", p)!.verdict).toBe(true);
  });

  it("does not decide a total that unpriced sales could still change", () => {
    const p = profile({ sales: [sale("2021-01-01", "oil on canvas", null)] });
    expect(judge("buyers who have spent over £50k in total", p)).toBeNull();
  });
});

describe("engagement and interactions", () => {
  const room = { id: "eng_1", at: "2026-10-01T10:00:00.000Z", kind: "room_opened", artworkId: null };
  const opened = { id: "eng_2", at: "2026-02-01T10:00:00.000Z", kind: "email_opened", artworkId: null };

  it("viewed the online room but never bought", () => {
    const rubric = "people who viewed the online room but never bought";
    const v = judge(rubric, profile({ engagements: [room] }))!;
    expect(v.verdict).toBe(true);
    expect(v.reasons.find((r) => r.kind === "engagement")).toMatchObject({ id: "eng_1" });
    expect(
      judge(rubric, profile({ engagements: [room], sales: [sale("2020-01-01", "bronze")] }))!.verdict,
    ).toBe(false);
    expect(judge(rubric, profile())!.verdict).toBe(false);
  });

  it("opened a newsletter within a window", () => {
    expect(
      judge("contacts who opened a newsletter this year", profile({ engagements: [opened] }))!.verdict,
    ).toBe(true);
    expect(
      judge("contacts who opened a newsletter in the last 3 months", profile({ engagements: [opened] }))!
        .verdict,
    ).toBe(false);
  });

  it("nobody has been in touch since a month", () => {
    const visit = {
      id: "int_1",
      at: "2026-07-10T10:00:00.000Z",
      type: "visit",
      direction: "inbound",
      summary: "Came in",
    };
    const vip = { vip: true };
    expect(
      judge("VIPs we haven't been in touch with since June", profile({ ...vip, interactions: [visit] }))!
        .verdict,
    ).toBe(false);
    expect(
      judge("VIPs we haven't been in touch with since August", profile({ ...vip, interactions: [visit] }))!
        .verdict,
    ).toBe(true);
    expect(
      judge("clients we haven't spoken to in over a year", profile({ interactions: [visit] }))!.verdict,
    ).toBe(false);
  });
});

describe("interests from notes", () => {
  const note = (text: string) => profile({ notes: [{ id: "n1", kind: "collecting_focus", text, at: null }] });

  it("reads an interest in the gallery's words, not only the rubric's", () => {
    const v = judge(
      "collectors interested in minimalism",
      note("Loves Agnes Martin - quiet, reductive grids"),
    )!;
    expect(v.verdict).toBe(true);
    expect(v.reasons.find((r) => r.kind === "note")).toMatchObject({ id: "n1", holds: true });
  });

  it("a note that rejects it is a no, and says so", () => {
    const v = judge("collectors interested in minimalism", note("Not into minimal stuff; wants colour"))!;
    expect(v.verdict).toBe(false);
    expect(v.probability).toBeGreaterThan(0.8);
  });

  it("sets aside what a note says of someone else", () => {
    const v = judge("people interested in ceramics", note("Her daughter does pottery classes"))!;
    expect(v.verdict).toBe(false);
    expect(v.reasons.some((r) => r.label.includes("someone else"))).toBe(true);
  });

  it("a purchase in the medium shows the interest; silence is a less sure no", () => {
    expect(
      judge("people interested in ceramics", profile({ sales: [sale("2022-01-01", "porcelain")] }))!.verdict,
    ).toBe(true);
    const silent = judge("people interested in ceramics", profile())!;
    expect(silent.verdict).toBe(false);
    expect(silent.probability).toBeLessThan(0.8);
  });

  it("ends a negation's scope at the next liking word", () => {
    const p = note("Not into photography, loves ceramics");
    expect(judge("collectors interested in ceramics", p)!.verdict).toBe(true);
    expect(judge("collectors interested in photography", p)!.verdict).toBe(false);
  });

  it("reads what an inbound interaction asked about", () => {
    const asked = {
      id: "int_9",
      at: "2026-01-01T00:00:00.000Z",
      type: "email",
      direction: "inbound",
      summary: "Asked for prices on the stoneware",
    };
    const v = judge("people interested in ceramics", profile({ interactions: [asked] }))!;
    expect(v.verdict).toBe(true);
    expect(v.reasons[0]).toMatchObject({ kind: "interaction", id: "int_9" });
  });

  it("reads a topic it has no vocabulary for by its own words", () => {
    expect(
      judge("collectors interested in seascapes", note("Wants seascapes for the Cornwall house"))!.verdict,
    ).toBe(true);
  });
});

describe("types, VIPs, lead status and alternatives", () => {
  it("reads subject words and alternatives", () => {
    expect(judge("museums and foundations", profile({ contactType: "institution" }))!.verdict).toBe(true);
    expect(judge("press contacts", profile({ contactType: "collector" }))!.verdict).toBe(false);
    expect(judge("VIP collectors", profile({ tags: ["VIP"] }))!.verdict).toBe(true);
    expect(judge("dormant leads", profile({ leadStatus: "dormant" }))!.verdict).toBe(true);
    const either = "collectors who bought a sculpture or opened the online room";
    expect(
      judge(
        either,
        profile({
          engagements: [{ id: "e", at: "2026-01-01T00:00:00.000Z", kind: "room_opened", artworkId: null }],
        }),
      )!.verdict,
    ).toBe(true);
    expect(judge(either, profile())!.verdict).toBe(false);
  });
});

describe("tags, lists of artists, and the ways people write times and amounts", () => {
  it("reads tags, and a tag is not a VIP flag", () => {
    const tagged = profile({ tags: ["Frieze 2025", "VIP"] });
    expect(judge("contacts tagged Frieze 2025", tagged)!.verdict).toBe(true);
    expect(judge("collectors not tagged VIP", tagged)!.verdict).toBe(false);
    expect(judge("collectors not tagged VIP", profile({ vip: true }))!.verdict).toBe(true);
  });

  it("reads several artists joined by or", () => {
    const boyd = sale("2022-01-01", "oil on board", 900_000, {
      artwork: {
        id: "a",
        title: "T",
        artistName: "Callum Boyd",
        medium: "oil on board",
        year: 2021,
        heightCm: 1,
        widthCm: 1,
      },
    });
    const rubric = "collectors who bought paintings by Elena Sokolova or Callum Boyd";
    expect(judge(rubric, profile({ sales: [boyd] }))!.verdict).toBe(true);
    expect(
      judge("collectors who bought paintings by Elena Sokolova", profile({ sales: [boyd] }))!.verdict,
    ).toBe(false);
  });

  it("tells last year from the last year, and reads ago", () => {
    const p = profile({ sales: [sale("2026-02-01", "bronze")] });
    expect(judge("people who bought last year", p)!.verdict).toBe(false);
    expect(judge("people who bought in the last year", p)!.verdict).toBe(true);
    expect(judge("people who bought since last year", p)!.verdict).toBe(true);
    expect(judge("people who bought a sculpture more than two years ago", p)!.verdict).toBe(false);
    expect(judge("collectors who haven't bought in 2 years", p)!.verdict).toBe(false);
  });

  it("reads amounts written with a plus or 'or more'", () => {
    const p = profile({ sales: [sale("2024-01-01", "bronze", 1_200_000)] });
    expect(judge("buyers of £10k+ works", p)!.verdict).toBe(true);
    expect(judge("collectors who spent £50k or more", p)!.verdict).toBe(false);
    expect(judge("clients who bought works priced above £20,000", p)!.verdict).toBe(false);
  });

  it("counts an unsubscribe recorded only as the consent state", () => {
    expect(judge("people who've opted out", profile({ emailConsent: "unsubscribed" }))!.verdict).toBe(true);
    expect(judge("people who've opted out", profile())!.verdict).toBe(false);
  });
});

describe("words the grammar has no entry for", () => {
  const note = (text: string, kind = "note") => profile({ notes: [{ id: "n1", kind, text, at: null }] });
  const netsuke = sale("2024-01-01", "boxwood", 80_000, {
    artwork: {
      id: "a_net",
      title: "Netsuke of a sleeping hare",
      artistName: "Anon",
      medium: "boxwood",
      year: null,
      heightCm: 4,
      widthCm: 5,
    },
  });

  it("reads an unknown word as an interest instead of refusing the rubric", () => {
    const r = readable("collectors of Bauhaus furniture");
    expect(r.summary).toContain("contact type is collector");
    expect(r.summary).toContain("interested in Bauhaus furniture (words read as an interest)");
    const v = judge("collectors of Bauhaus furniture", note("Wants Bauhaus furniture for the new flat"))!;
    expect(v.verdict).toBe(true);
    expect(v.reasons.find((x) => x.kind === "note")!.label).toMatch(
      /^matched 'Bauhaus', 'furniture' in a note as an interest/,
    );
    // Every word of a phrase must be in one clause of the text.
    expect(
      judge("collectors of Bauhaus furniture", note("Bauhaus posters. Furniture is too bulky"))!.verdict,
    ).toBe(false);
  });

  it("matches by word family, whatever the accents and case", () => {
    expect(judge("people who adore printmakers", note("Does printmaking herself"))!.verdict).toBe(true);
    expect(judge("collectors who want glassware", note("GLASSWARE, mostly Murano"))!.verdict).toBe(true);
    expect(judge("clients who want céramique", note("asked about CERAMIQUE"))!.verdict).toBe(true);
    expect(judge("collectors who want glassware", note("wants glass"))!.verdict).toBe(false);
  });

  it("is less sure than a known topic, and less sure still of silence", () => {
    const known = judge("collectors interested in ceramics", note("wants ceramics"))!;
    const loose = judge("collectors who want glassware", note("wants glassware"))!;
    expect(loose.verdict).toBe(true);
    expect(loose.probability).toBeLessThan(known.probability);
    const silent = judge("collectors who want glassware", profile())!;
    expect(silent.verdict).toBe(false);
    expect(silent.probability).toBeLessThan(0.7);
  });

  it("looks in the contact's own text: bought works, interactions, tags, not only notes", () => {
    const bought = judge("collectors of netsuke", profile({ sales: [netsuke] }))!;
    expect(bought.verdict).toBe(true);
    expect(bought.reasons.find((x) => x.kind === "sale")!.label).toContain(
      "matched 'Netsuke' in a bought work",
    );
    const asked = {
      id: "int_1",
      at: "2026-01-01T00:00:00.000Z",
      type: "email",
      direction: "inbound",
      summary: "Asked whether any netsuke are coming up",
    };
    expect(judge("collectors of netsuke", profile({ interactions: [asked] }))!.verdict).toBe(true);
    expect(
      judge("collectors of netsuke", profile({ interactions: [{ ...asked, direction: "outbound" }] }))!
        .verdict,
    ).toBe(false);
    expect(judge("collectors of netsuke", profile({ tags: ["Netsuke fair 2025"] }))!.verdict).toBe(true);
  });

  it("reads a note's negation and sets aside what it says of someone else", () => {
    const no = judge("people who want glassware", note("Not interested in glassware"))!;
    expect(no.verdict).toBe(false);
    expect(no.reasons[0]!.label).toContain("rejects it");
    const other = judge("people who want glassware", note("Her husband collects glassware"))!;
    expect(other.verdict).toBe(false);
    expect(other.reasons.some((x) => x.label.includes("someone else"))).toBe(true);
  });

  it("carries the clause's negation and reads 'or' as alternatives", () => {
    const p = profile({
      country: "GB",
      notes: [{ id: "n1", kind: "note", text: "buys glassware", at: null }],
    });
    expect(judge("UK collectors, not glassware", p)!.verdict).toBe(false);
    expect(judge("UK collectors, not glassware", profile({ country: "GB" }))!.verdict).toBe(true);
    expect(judge("collectors of netsuke or inro", note("wants an inro"))!.verdict).toBe(true);
    expect(judge("collectors of netsuke and inro", note("wants an inro"))!.verdict).toBe(false);
  });

  it("still refuses judgements and rubrics with nothing to read", () => {
    for (const text of [
      "collectors who'd appreciate a studio visit",
      "people with big walls",
      "very much so",
    ]) {
      expect(readRubric(text, NOW).readable, text).toBe(false);
    }
    expect(readable("collectors who'd bought glassware").summary).toContain("glassware");
    // A liking word's topic the vocabulary does not know is looked for by its own words, never as an artist;
    // one the style vocabulary knows is that style.
    expect(readable("collectors who love Art Nouveau").summary).toBe(
      "contact type is collector; interested in art nouveau",
    );
    expect(readable("collectors who love Op Art").summary).toBe(
      "contact type is collector; interested in geometric abstraction",
    );
  });
});

describe("dates and windows the grammar had no entry for", () => {
  // NOW is 2026-11-27: the latest spring begun is March–May 2026, the latest autumn began on 1 September 2026.
  const bought = (...days: string[]) => profile({ sales: days.map((d) => sale(d, "bronze")) });
  const window = (text: string) => {
    const c = readable(text).criteria as { all: { windows?: { from?: string; to?: string }[] }[] };
    return c.all.find((x) => x.windows)!.windows![0]!;
  };

  it("reads a year written with across or throughout, and a range with until", () => {
    expect(window("collectors who bought across 2023")).toMatchObject({
      from: "2023-01-01T00:00:00.000Z",
      to: "2024-01-01T00:00:00.000Z",
    });
    expect(judge("people who bought throughout 2023", bought("2023-06-01"))!.verdict).toBe(true);
    expect(judge("people who bought throughout 2023", bought("2024-06-01"))!.verdict).toBe(false);
    expect(window("people who bought from 2019 until 2021")).toMatchObject({
      from: "2019-01-01T00:00:00.000Z",
      to: "2022-01-01T00:00:00.000Z",
    });
  });

  it("keeps reading the windows it read before", () => {
    expect(window("collectors who bought from March 2022 on")).toEqual({
      from: "2022-03-01T00:00:00.000Z",
      label: "from march 2022 on",
    });
    expect(window("buyers prior to 2021").to).toBe("2021-01-01T00:00:00.000Z");
    expect(window("collectors who bought over the last eighteen months").from).toBe(
      "2025-05-27T00:00:00.000Z",
    );
  });

  it("reads seasons against the judging day", () => {
    expect(window("collectors who bought this spring")).toMatchObject({
      from: "2026-03-01T00:00:00.000Z",
      to: "2026-06-01T00:00:00.000Z",
    });
    expect(window("collectors who bought last summer")).toMatchObject({ from: "2026-06-01T00:00:00.000Z" });
    expect(window("buyers since the autumn")).toEqual({
      from: "2026-09-01T00:00:00.000Z",
      label: "since the autumn",
    });
    expect(window("people who bought in winter 2024")).toMatchObject({
      from: "2023-12-01T00:00:00.000Z",
      to: "2024-03-01T00:00:00.000Z",
    });
    // A gallery's season is its spring or autumn programme: half a year.
    expect(window("buyers in the past two seasons").from).toBe("2025-11-27T00:00:00.000Z");
    expect(judge("collectors who bought this spring", bought("2026-04-10"))!.verdict).toBe(true);
    expect(judge("collectors who bought this spring", bought("2026-07-10"))!.verdict).toBe(false);
  });

  it("reads written dates by chrono: days, ranges, a date without its year", () => {
    expect(window("people who bought since 3 March 2024").from).toBe("2024-03-03T00:00:00.000Z");
    expect(window("people who bought before 15/06/2025").to).toBe("2025-06-15T00:00:00.000Z");
    expect(window("people who bought between 1 March and 15 April 2024")).toMatchObject({
      from: "2024-03-01T00:00:00.000Z",
      to: "2024-04-16T00:00:00.000Z",
    });
    // Without a year, the latest such day not after the judging day.
    expect(window("people who bought a painting on 12 December")).toMatchObject({
      from: "2025-12-12T00:00:00.000Z",
      to: "2025-12-13T00:00:00.000Z",
    });
    const p = bought("2024-03-02", "2024-03-04");
    expect(judge("people who bought at least 2 works since 3 March 2024", p)!.verdict).toBe(false);
    expect(judge("people who bought at least 2 works since 1 March 2024", p)!.verdict).toBe(true);
  });

  it("reads fortnights, decades and halves of a year, and names a time it still cannot place", () => {
    expect(window("collectors who bought in the past fortnight").from).toBe("2026-11-13T00:00:00.000Z");
    expect(window("buyers over the last decade").from).toBe("2016-11-27T00:00:00.000Z");
    expect(window("people who bought in the second half of 2024")).toMatchObject({
      from: "2024-07-01T00:00:00.000Z",
      to: "2025-01-01T00:00:00.000Z",
    });
    expect(readable("people who visited around Easter").summary).toContain('not read: "around Easter"');
  });

  it("takes no weekday or time of day for a window", () => {
    const r = readable("collectors of sun prints");
    expect(JSON.stringify(r.criteria)).not.toContain("windows");
  });
});

describe("the reviewed vocabulary of roles, events and kinds of work", () => {
  const visit = (summary: string | null, type = "visit") => ({
    id: `int_${type}`,
    at: "2026-05-01T00:00:00.000Z",
    type,
    direction: "inbound",
    summary,
  });
  const work = (over: Partial<NonNullable<Sale["artwork"]>>) =>
    sale("2025-01-01", "bronze", 500_000, {
      artwork: {
        id: "a",
        title: "T",
        artistName: "A",
        medium: "bronze",
        year: 2020,
        heightCm: 40,
        widthCm: 30,
        ...over,
      },
    });

  it("reads roles from what a contact's records say they do, and a contact type where one records it", () => {
    expect(readable("registrars at a kunsthalle").summary).toBe("works as registrar at a kunsthalle");
    const curator = (text: string, over: Partial<ContactProfile> = {}) =>
      judge(
        "museum curators",
        profile({ contactType: "institution", notes: [{ id: "n", kind: "note", text, at: null }], ...over }),
      )!;
    expect(
      curator("Chief curator at the Northgate Museum, Leeds", { contactType: "collector" }).verdict,
    ).toBe(true);
    expect(curator("Registrarin, Kurator im Kunstmuseum Basel").verdict).toBe(true);
    expect(curator("学芸員（東京国立近代美術館）").verdict).toBe(true);
    expect(curator("Curator of the Nordbank corporate art collection").verdict).toBe(false);
    expect(curator("Head of Learning at the Harbourside Museum").verdict).toBe(false);
    expect(curator("Retired in 2022 after thirty years as curator at a London museum").verdict).toBe(false);
    expect(
      judge("curators in Germany", profile({ contactType: "institution", country: "DE" }))!.verdict,
    ).toBe(true);
    expect(judge("art consultants", profile({ contactType: "advisor" }))!.verdict).toBe(true);
    expect(judge("corporate collections", profile({ contactType: "press" }))!.verdict).toBe(false);
  });

  it("reads a role no contact type records by its words, in the company or the contact's text", () => {
    const v = judge("auction houses", profile({ contactType: "other", company: "Smith Auction House Ltd" }))!;
    expect(v.verdict).toBe(true);
    expect(v.reasons[0]!.label).toBe('the company says auction house: "Smith Auction House Ltd"');
    expect(
      judge("dealers", profile({ notes: [{ id: "n", kind: "note", text: "A dealer in Basel", at: null }] }))!
        .verdict,
    ).toBe(true);
    expect(judge("dealers", profile())!.verdict).toBe(false);
  });

  it("reads events as interactions named in any language, less sure of a visit with no summary", () => {
    const rubric = "collectors who came to the vernissage";
    const named = judge(rubric, profile({ interactions: [visit("Came to the vernissage with her son")] }))!;
    const unsaid = judge(rubric, profile({ interactions: [visit(null)] }))!;
    expect(named.verdict).toBe(true);
    expect(unsaid.verdict).toBe(true);
    expect(unsaid.probability).toBeLessThan(named.probability);
    expect(judge(rubric, profile({ interactions: [visit("Dropped in")] }))!.verdict).toBe(false);
    expect(judge(rubric, profile({ interactions: [visit("Zur Eröffnung gekommen")] }))!.verdict).toBe(true);
    expect(judge(rubric, profile({ interactions: [visit("オープニングに来場")] }))!.verdict).toBe(true);
    expect(
      judge(
        "people who joined a studio visit",
        profile({ interactions: [visit("Atelierbesuch bei Arndt", "meeting")] }),
      )!.verdict,
    ).toBe(true);
    expect(judge(rubric, profile({ interactions: [visit("Vernissage chat", "call")] }))!.verdict).toBe(false);
    expect(readable("collectors on the collectors' trip").summary).toContain(
      "interaction (visit/meeting) naming trip",
    );
    expect(
      judge(
        "people who never came to a studio visit",
        profile({ interactions: [visit("Studio visit, Peckham")] }),
      )!.verdict,
    ).toBe(false);
  });

  it("reads kinds of work: monumental by size, multiples by edition, site-specific as installation", () => {
    const big = profile({ sales: [work({ heightCm: 240 })] });
    const small = profile({ sales: [work({ heightCm: 40 })] });
    expect(judge("collectors who bought monumental sculpture", big)!.verdict).toBe(true);
    expect(judge("collectors who bought monumental sculpture", small)!.verdict).toBe(false);
    expect(
      judge("buyers of multiples", profile({ sales: [work({ medium: "Painted resin, edition of 50" })] }))!
        .verdict,
    ).toBe(true);
    expect(judge("buyers of multiples", profile({ sales: [work({ medium: "etching" })] }))!.verdict).toBe(
      true,
    );
    expect(judge("buyers of multiples", small)!.verdict).toBe(false);
    expect(readable("collectors who bought site-specific work").summary).toContain("bought installation");
  });
});

describe("the labelled set", () => {
  it("meets accuracy >= 0.90 with coverage >= 0.85, on the tuning set and on the held-out rubrics", () => {
    for (const section of scoreRubrics()) {
      const metric = (name: string) => section.metrics.find((m) => m.name.startsWith(name))!.value;
      expect(section.cases, section.title).toBeGreaterThan(100);
      expect(metric("accuracy"), `${section.title}\n${section.detail}`).toBeGreaterThanOrEqual(0.9);
      expect(metric("coverage"), `${section.title}\n${section.detail}`).toBeGreaterThanOrEqual(0.85);
      expect(metric("readability"), section.title).toBe(1);
    }
  });
});

describe("reading what galleries write (issue 30's blind rounds)", () => {
  const note = (text: string) => ({ id: `n_${text.length}`, kind: "note", text, at: null });
  const met = (type: string, at: string, summary: string | null) => ({
    id: `int_${at}`,
    at: `${at}T12:00:00.000Z`,
    type,
    direction: "inbound",
    summary,
  });

  it("reads an aside as explanation, and words beside a criterion as unread, never as conditions", () => {
    const aside = readable("corporate collections (banks, insurers, law firms) that bought from us in 2025");
    expect(aside.summary).toBe(
      'works as corporate collection; bought any work in 2025; not read: "banks", "insurers", "law firms"',
    );
    const beside = readable("people who sent an inquiry through the website since September");
    expect(beside.summary).toContain('not read: "website"');
    expect(JSON.stringify(beside.criteria)).not.toContain('"interest"');
    // Where the unknown words are the clause's whole point, they are still the interest it asks for.
    expect(readable("collectors of netsuke").summary).toContain("interested in netsuke");
  });

  it("places 'since' after the latest record that met the criterion before it", () => {
    const rubric =
      "collectors who bought photography in the last two years but haven't been back to the gallery since";
    const buyer = (visit: string) =>
      profile({
        sales: [sale("2025-06-01", "Gelatin silver print")],
        interactions: [met("visit", visit, "Came in")],
      });
    expect(judge(rubric, buyer("2025-03-01"))!.verdict).toBe(true);
    expect(judge(rubric, buyer("2025-09-01"))!.verdict).toBe(false);
  });

  it("reads a size written out, the pandemic as a date, and an amount after 'big spenders'", () => {
    expect(readable("who bought a really big painting (more than 2 m on at least one side)").summary).toBe(
      "bought painting (at least 200 cm)",
    );
    expect(readRubric("people with big walls", NOW).readable).toBe(false);
    const c = readable("collectors who bought before covid").criteria as {
      all: { windows?: { to?: string }[] }[];
    };
    expect(c.all.find((x) => x.windows)!.windows![0]!.to).toBe("2020-03-01T00:00:00.000Z");
    expect(readable("big spenders: more than €40k with us").summary).toBe("spent in total > 40000 EUR");
  });

  it("reads a period named with a purchase as when the work was made", () => {
    const rubric = "people who have bought modernist works on paper";
    const bought = (year: number) =>
      profile({
        sales: [
          {
            ...sale("2024-01-01", "Gouache on paper"),
            artwork: { ...sale("2024-01-01", "Gouache on paper").artwork!, year },
          },
        ],
      });
    expect(judge(rubric, bought(1931))!.verdict).toBe(true);
    expect(judge(rubric, bought(2011))!.verdict).toBe(false);
  });

  it("reads a note's rejection in other languages", () => {
    const rubric = "people interested in photography";
    expect(judge(rubric, profile({ notes: [note("Kein Interesse an Fotografie.")] }))!.verdict).toBe(false);
    expect(judge(rubric, profile({ notes: [note("写真には興味がない")] }))!.verdict).toBe(false);
    expect(judge(rubric, profile({ notes: [note("Interessiert sich sehr für Fotografie.")] }))!.verdict).toBe(
      true,
    );
  });

  it("takes a city on the profile as where someone lives, whatever the phone says", () => {
    const p = profile({
      city: "Lugano",
      region: "Ticino",
      country: "CH",
      notes: [{ id: "ph", kind: "phone", text: "+41 41 119 5769", at: null }],
    });
    expect(judge("collectors in Switzerland", { ...p, contactType: "collector" })!.verdict).toBe(true);
  });

  it("refuses a judgement in any language, and reads the rest of a rubric in another language", () => {
    for (const text of [
      "Sammler mit gutem Auge",
      "i collezionisti con l'occhio giusto",
      "目利きのコレクター",
    ])
      expect(readRubric(text, NOW).readable, text).toBe(false);
    expect(
      readable(
        "Coleccionistas que viven en Latinoamérica y nos han comprado una escultura de más de 20.000 dólares",
      ).summary,
    ).toMatch(
      /^located in Latin America; contact type is collector; bought sculpture priced > 20000 USD \(read from es: /,
    );
  });
});

describe("styles and movements (lib/engine/styles.ts, shared with the matcher)", () => {
  const tagged = (at: string, tags: string[], extra: Partial<NonNullable<Sale["artwork"]>> = {}) => {
    const s = sale(at, "Oil on canvas");
    return { ...s, artwork: { ...s.artwork!, tags, ...extra } };
  };
  const style = (text: string) =>
    (readable(text).criteria as { all: { kind: string; style?: string }[] }).all.find(
      (c) => c.kind === "interest",
    )?.style;

  it("reads a style named in any of the languages it knows, inflected, as that style", () => {
    expect(style("collectors of minimal art")).toBe("minimal_art");
    expect(style("Sammler minimalistischer Kunst")).toBe("minimal_art");
    expect(style("collectionneurs d'art minimal")).toBe("minimal_art");
    expect(style("ミニマル・アートのコレクター")).toBe("minimal_art");
    expect(style("verzamelaars van popart")).toBe("pop_art");
    expect(style("coleccionistas de arte povera")).toBe("arte_povera");
    // The style, not the medium it is painted in.
    expect(readable("contacts interested in colour-field painting").summary).toBe(
      "interested in colour-field painting",
    );
    expect(style("contacts interested in colour-field painting")).toBe("colour_field");
  });

  it("'collectors of minimal art': those who bought or asked about such works, or whose notes say so", () => {
    const rubric = "collectors of minimal art";
    const buyer = profile({ sales: [tagged("2025-02-01", ["Minimalism"])] });
    const v = judge(rubric, buyer)!;
    expect(v.verdict).toBe(true);
    expect(v.reasons.find((r) => r.kind === "sale")!.label).toMatch(
      /^bought Work \d+ by Anon \(Oil on canvas\) for .*, minimal art: tagged “Minimalism”$/,
    );
    // A description of the work says it too.
    const described = profile({
      sales: [tagged("2025-02-01", [], { description: "A post-minimalist floor piece in felt." })],
    });
    expect(judge(rubric, described)!.verdict).toBe(true);
    const asked = profile({
      interactions: [
        {
          id: "int_min",
          at: "2026-05-02T10:00:00.000Z",
          type: "email",
          direction: "inbound",
          summary: "Is it still available?",
          artwork: { ...tagged("2025-02-01", ["Minimal art"]).artwork },
        },
      ],
    });
    const a = judge(rubric, asked)!;
    expect(a.verdict).toBe(true);
    expect(a.reasons.some((r) => r.kind === "interaction" && r.id === "int_min" && r.holds)).toBe(true);
    const noted = profile({
      notes: [
        { id: "con_test:collecting_focus", kind: "collecting_focus", text: "Minimalist sculpture", at: null },
      ],
    });
    expect(judge(rubric, noted)!.verdict).toBe(true);
    // Another style, a plain painting, or a note that rejects it: no.
    expect(judge(rubric, profile({ sales: [tagged("2025-02-01", ["Pop art"])] }))!.verdict).toBe(false);
    expect(judge(rubric, profile({ sales: [sale("2025-02-01", "Oil on canvas")] }))!.verdict).toBe(false);
    const against = profile({
      notes: [{ id: "con_test", kind: "notes", text: "Not into minimalism at all", at: null }],
    });
    expect(judge(rubric, against)!.verdict).toBe(false);
  });

  it("a narrower style shows a broader one; a broad one does not show a narrower", () => {
    const cf = profile({ sales: [tagged("2025-02-01", ["Color field"])] });
    expect(judge("collectors of abstraction", cf)!.verdict).toBe(true);
    const abstract = profile({ sales: [tagged("2025-02-01", ["Abstraction"])] });
    expect(judge("contacts interested in colour-field painting", abstract)!.verdict).toBe(false);
    expect(judge("contacts interested in colour-field painting", cf)!.verdict).toBe(true);
    // The German rubric, the same judgment.
    expect(judge("Sammler von Farbfeldmalerei", cf)!.verdict).toBe(true);
  });
});
