/**
 * 300 contacts with their collector and institution profiles, assignees and tags; consignments. Every
 * contact_type, lead_status and email_consent value; a few archived contacts, one of them an older record of a
 * current collector with the same email.
 */
import * as schema from "../../db/schema";
import { ascii, BASE, DAY, HOUR, iso, SPAN_START } from "./common";
import type { Art, Artist, Insert, Person, SeedContext } from "./context";
import {
  ADVISORIES,
  type BUDGET_BANDS,
  COMPANIES,
  CONTACT_TYPES,
  FIRST_NAMES,
  INSTITUTION_KINDS,
  INSTITUTION_PATTERNS,
  LAST_NAMES,
  LEAD_STATUSES,
  PLACES,
  PRESS,
  TITLE_NOUNS,
  TRADES,
} from "./material";
import { bandOf, drawTaste, focusOf, PRACTICE_WORDS, type Taste } from "./tastes";

const CONTACT_COUNT = 300;

/** 300 contacts with profiles, assignees and tags. */
export function seedContacts(ctx: SeedContext, contactTags: string[], artists: Artist[]): Person[] {
  const { rng, newId, G, rows, editorId, viewerId } = ctx;
  const contactTimes = Array.from({ length: CONTACT_COUNT }, () =>
    rng.between(SPAN_START, BASE - 2 * DAY),
  ).sort((a, b) => a - b);
  const memberIds = [editorId, viewerId];
  const usedNames = new Set<string>();
  const personName = () => {
    let name: string;
    do name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    while (usedNames.has(name));
    usedNames.add(name);
    return name;
  };
  const usedInstitutions = new Set<string>();
  const usedEmails = new Set<string>();
  const people: Person[] = [];
  const typeOrder = Object.keys(CONTACT_TYPES) as (keyof typeof CONTACT_TYPES)[];
  const statusOrder = Object.keys(LEAD_STATUSES) as (keyof typeof LEAD_STATUSES)[];

  contactTimes.forEach((createdMs, i) => {
    // The first few rows cover every type and status so filters always have something to find.
    const type = i < typeOrder.length ? typeOrder[i]! : rng.weighted(CONTACT_TYPES);
    const leadStatus = i < statusOrder.length ? statusOrder[i]! : rng.weighted(LEAD_STATUSES);
    const id = newId("con", createdMs);
    let name: string;
    let company: string | null = null;
    let email: string | null;
    let formOfAddress: string | null = null;
    let instIndex = 0;
    if (type === "institution") {
      let inst: string;
      do {
        instIndex = rng.int(0, INSTITUTION_PATTERNS.length - 1);
        inst = INSTITUTION_PATTERNS[instIndex]!(rng.pick(PLACES));
      } while (usedInstitutions.has(inst));
      usedInstitutions.add(inst);
      name = inst;
      company = inst;
      email = `acquisitions@${ascii(inst.replace(/^The /, ""))}.example`;
    } else {
      name = type === "consignor" && rng.chance(0.3) ? `Estate of ${personName()}` : personName();
      const [first, ...rest] = name.replace(/^Estate of /, "").split(" ");
      company =
        type === "advisor"
          ? rng.pick(ADVISORIES)
          : type === "press"
            ? rng.pick(PRESS)
            : type === "other"
              ? rng.pick(TRADES)
              : type === "collector" && rng.chance(0.2)
                ? rng.pick(COMPANIES)
                : null;
      const domain = company
        ? `${ascii(company)}.example`
        : rng.pick(["example.com", "example.org", "example.net"]);
      email = `${ascii(first!)}.${ascii(rest.join(""))}@${domain}`;
      formOfAddress = rng.chance(0.5) ? rng.pick(["Ms.", "Mr.", "Dr.", "Mx.", "Prof."]) : null;
    }
    if (rng.chance(0.05)) email = null;
    const archived = i >= 20 && rng.chance(0.05);
    // Emails are unique among the unarchived contacts of a gallery: a clash gets a numbered mailbox.
    if (email !== null && !archived) {
      const [local, domain] = email.split("@") as [string, string];
      for (let n = 2; usedEmails.has(email); n++) email = `${local}${n}@${domain}`;
      usedEmails.add(email);
    }
    const doNotEmail = email !== null && rng.chance(0.06);
    const taste =
      type === "collector" || type === "institution" || type === "advisor"
        ? drawTaste(rng, artists, type, createdMs)
        : null;
    const budget =
      type === "collector" && taste ? (bandOf(taste.band[0]) as (typeof BUDGET_BANDS)[number]) : null;

    const customFields: Record<string, unknown> = {};
    if (rng.chance(0.3))
      customFields.source = rng.pick(["Art Basel Miami Beach 2024", "Referral", "Website", "Frieze 2025"]);
    if (rng.chance(0.2)) customFields.preferred_language = rng.pick(["en", "fr", "de", "ja", "es"]);
    if (rng.chance(0.1)) customFields.collection_size = rng.int(5, 400);

    const row: Insert<typeof schema.contacts> = {
      id,
      ...G,
      name,
      company,
      email,
      phone: rng.chance(0.6)
        ? rng.chance(0.7)
          ? `+1 212 555 01${String(rng.int(0, 99)).padStart(2, "0")}`
          : `+44 20 7946 0${String(rng.int(0, 999)).padStart(3, "0")}`
        : null,
      notes:
        taste && rng.chance(0.45)
          ? tasteNote(ctx, taste, type)
          : rng.chance(0.25)
            ? rng.pick([
                "Prefers to be contacted in the morning.",
                "Introduced by a longtime client at the spring fair.",
                "Building a collection for a new home in the Hudson Valley.",
              ])
            : null,
      formOfAddress: formOfAddress,
      contactType: type,
      lastInteractionAt: null,
      lastInteractionType: null,
      leadStatus: leadStatus,
      doNotEmail: doNotEmail,
      emailConsent: doNotEmail
        ? rng.pick(["declined", "unsubscribed"])
        : rng.weighted({ granted: 55, pending: 35, declined: 5, unsubscribed: 5 }),
      archivedAt: archived ? iso(rng.between(createdMs, BASE - DAY)) : null,
      saveState: "new",
      customFields: customFields,
      metadata: rng.chance(0.3) ? { crm_id: `HS-${100_000 + i}` } : {},
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    };
    people.push({
      id,
      name,
      email,
      type,
      createdMs,
      archived,
      budget,
      taste,
      interactionIds: [],
      engagementIds: [],
      saleIds: [],
      row,
    });

    if (type === "collector") {
      rows(schema.collectorProfiles).push({
        contactId: id,
        ...G,
        // Most profiles say what the collector collects; some say something vaguer, as members write them.
        collectingFocus:
          taste && rng.chance(0.85)
            ? focusOf(rng, taste)
            : rng.pick(["Across media", "Building a collection", "Open to new artists"]),
        budgetBand: budget,
        wishlistNotes: rng.chance(0.5)
          ? taste && rng.chance(0.7)
            ? `Looking for a ${rng.pick(["major", "key", "large", "recent"])} work by ${rng.pick(taste.favourites).name}.`
            : `Looking for a major ${rng.pick(TITLE_NOUNS).toLowerCase()} subject.`
          : null,
        preferredContactMethod: rng.pick(["email", "phone", "whatsapp", "in_person"]),
        vip: rng.chance(0.12),
        taxExempt: rng.chance(0.03),
        createdAt: iso(createdMs),
        updatedAt: iso(createdMs),
      });
    } else if (type === "institution") {
      rows(schema.institutionProfiles).push({
        contactId: id,
        ...G,
        institutionKind: INSTITUTION_KINDS[instIndex],
        acquisitionProcess: rng.pick([
          "Curatorial proposal, then acquisitions committee (meets quarterly).",
          "Director approval under $50k; board vote above.",
          "Annual acquisitions fund allocated each spring.",
        ]),
        primaryContactName: personName(),
        taxExempt: rng.chance(0.85),
        createdAt: iso(createdMs),
        updatedAt: iso(createdMs),
      });
    }

    const assigneeCount = rng.weighted({ "0": 20, "1": 70, "2": 10 });
    const assignees =
      assigneeCount === "2"
        ? memberIds
        : assigneeCount === "1"
          ? [rng.chance(0.75) ? editorId : viewerId]
          : [];
    assignees.forEach((memberId, position) => {
      rows(schema.contactAssignees).push({
        ...G,
        contactId: id,
        memberId: memberId,
        position,
        createdAt: iso(createdMs),
      });
    });
    for (const tagId of rng.sample(contactTags, rng.int(0, 3))) {
      rows(schema.contactTags).push({ ...G, contactId: id, tagId: tagId, createdAt: iso(createdMs) });
    }
  });

  // An old record, archived, of a collector who has an active record now: the same name and email, which the
  // rule allows because only unarchived contacts must have distinct emails.
  const old = people.find((p) => p.archived && p.type === "collector");
  const current = people.find(
    (p) => !p.archived && p.type === "collector" && p.email !== null && old && p.createdMs > old.createdMs,
  );
  if (!old || !current)
    throw new Error("seed: no archived collector to hold an older record of a current one");
  old.name = current.name;
  old.email = current.email;
  old.row.name = current.name;
  old.row.email = current.email;
  old.row.company = current.row.company;
  return people;
}

/** A member's note on a buyer, in the gallery's words, from its taste. */
function tasteNote(ctx: SeedContext, taste: Taste, type: string): string {
  const { rng } = ctx;
  const [first, second] = taste.favourites;
  if (type === "advisor") {
    const [a, b] = taste.clients as [Taste, Taste];
    return `Advises two private clients: one follows ${rng.pick(a.favourites).name}, the other collects ${PRACTICE_WORDS[b.practices[0]!]}.`;
  }
  if (type === "institution") {
    const era = taste.era === "modern" ? "post-war" : "contemporary";
    return `Acquires ${era} ${PRACTICE_WORDS[taste.practices[0]!]} for the permanent collection.`;
  }
  const others = (Object.keys(PRACTICE_WORDS) as (keyof typeof PRACTICE_WORDS)[]).filter(
    (p) => !taste.practices.includes(p) && p !== "antiquity",
  );
  return rng.pick([
    `Follows ${first!.name} closely; wants to see new work first.`,
    second
      ? `Owns ${first!.name} and ${second.name}; looking to add to both.`
      : `Bought ${first!.name} early and keeps an eye on the studio.`,
    `Not interested in ${PRACTICE_WORDS[rng.pick(others)]}. Loves ${first!.name}.`,
    `Collects ${PRACTICE_WORDS[taste.practices[0]!]}, mostly ${taste.era === "modern" ? "post-war" : "contemporary"}.`,
  ]);
}

/** Consignments on the activity timeline. */
export function seedConsignments(ctx: SeedContext, arts: Art[], people: Person[]): void {
  const { rng } = ctx;
  const consignors = people.filter((p) => p.type === "consignor");
  for (const art of arts) {
    if (art.row.ownershipStatus === "consigned" && rng.chance(0.6)) {
      const consignor = rng.pick(consignors);
      ctx.activity(art, art.createdMs + HOUR, {
        eventType: "consigned",
        summary: `Consigned by ${consignor.name}`,
        contactId: consignor.id,
        refTable: "contacts",
        refId: consignor.id,
      });
    }
  }
}
