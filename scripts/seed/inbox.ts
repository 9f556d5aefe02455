import { createHash } from "node:crypto";
/**
 * The inbox: the editor's email, WhatsApp and SMS accounts and the viewer's email and WhatsApp, each member's
 * threads with their messages. Threads are written as the API's ingest would leave them: the counterpart's
 * address normalised (an email lower-cased, a phone in E.164), the contact matched by it (unarchived contacts
 * first, then the newest), the last_* columns from the newest message, unread_count from the unread inbound
 * messages. Triage comes from design §3's sets and fits each conversation.
 */
import * as schema from "../../db/schema";
import { e164, type InboxChannel, normaliseAddress } from "../../lib/addresses";
import type { threadStates, triageIntents, triageUrgencies } from "../../lib/schemas/inbox";
import { snippetOf } from "../../services/inbox/ingest";
import { BASE, DAY, HOUR, iso, MINUTE } from "./common";
import type { Art, Person, SeedContext } from "./context";
import type { Rng } from "./random";

type Channel = InboxChannel;
type Intent = (typeof triageIntents)[number];
type Urgency = (typeof triageUrgencies)[number];
type State = (typeof threadStates)[number];

/** What a conversation's text may name. */
interface Cast {
  first: string;
  member: string;
  art: Art;
}

interface Script {
  /** Email conversations have a subject; chats (WhatsApp, SMS) do not. */
  kind: "email" | "chat";
  subject?: (c: Cast) => string;
  /** In order; `in` is from the counterpart, `out` from the member. */
  messages: ["in" | "out", (c: Cast) => string][];
  /** The engine's reading; null leaves the thread untriaged. */
  triage: { intent: Intent; urgency: Urgency; expectsReply: number; escalating: number } | null;
}

const quoted = (a: Art) => `"${a.title}" by ${a.artist.name}`;

/** Conversations by key; each thread plays one. */
const SCRIPTS = {
  hold: {
    kind: "email",
    subject: (c) => `Hold on ${quoted(c.art)}`,
    messages: [
      [
        "in",
        (c) =>
          `Dear ${c.member},\n\nI saw ${quoted(c.art)} in the viewing room and would like to acquire it. Could you hold it for me until Friday while I arrange the transfer?\n\nBest regards,\n${c.first}`,
      ],
      [
        "out",
        (c) =>
          `Dear ${c.first},\n\nThank you. I have placed a hold on the work until Friday at 6pm and will send the invoice and the condition report this afternoon.\n\nWarmly,\n${c.member}`,
      ],
      [
        "in",
        () => "Wonderful. Please address the invoice to my office; we will wire the payment on Thursday.",
      ],
    ],
    triage: { intent: "purchase_inquiry", urgency: "today", expectsReply: 0.9, escalating: 0.05 },
  },
  price: {
    kind: "email",
    subject: (c) => `Price of "${c.art.title}"`,
    messages: [
      [
        "in",
        (c) =>
          `Hello,\n\nCould you tell me the price of ${quoted(c.art)}? I am also interested in other works from the same series.\n\n${c.first}`,
      ],
    ],
    triage: { intent: "price_request", urgency: "today", expectsReply: 0.93, escalating: 0.02 },
  },
  availability: {
    kind: "email",
    subject: (c) => `Works on paper by ${c.art.artist.name}`,
    messages: [
      [
        "in",
        (c) =>
          `Hi ${c.member},\n\nDo you still have works on paper by ${c.art.artist.name}? I am looking for something for a new apartment.`,
      ],
      [
        "out",
        () =>
          "We have three works on paper in the stockroom; I am attaching images, dimensions and details of each.",
      ],
      ["in", (c) => `Thank you. Is "${c.art.title}" among them, and is it still available?`],
    ],
    triage: { intent: "availability", urgency: "this_week", expectsReply: 0.86, escalating: 0.04 },
  },
  shipping: {
    kind: "email",
    subject: () => "Shipping quote for my recent purchase",
    messages: [
      [
        "in",
        () =>
          "Could you arrange shipping of my recent purchase to London? We will need a crate and a courier who handles customs.",
      ],
      [
        "out",
        () =>
          "Of course. I have asked our shipper for a quote for crating and fine-art transport to London and will have it by Wednesday.",
      ],
      ["in", () => "Thanks. Please note that the building's loading dock closes at 4pm."],
    ],
    triage: { intent: "logistics", urgency: "this_week", expectsReply: 0.55, escalating: 0.03 },
  },
  consign: {
    kind: "email",
    subject: () => "Consigning a work from my collection",
    messages: [
      [
        "in",
        (c) =>
          `Dear ${c.member},\n\nI own a painting by ${c.art.artist.name} that I bought from the gallery some years ago, and I am thinking of selling it. Would you take it on consignment, and what would you estimate it at?\n\n${c.first}`,
      ],
      [
        "out",
        () =>
          "Thank you for thinking of us. Could you send photographs of the front and back and the invoice from your purchase? I will come back to you with an estimate.",
      ],
      ["in", () => "Photographs attached. The invoice is in storage; I will look for it next week."],
    ],
    triage: { intent: "consignment", urgency: "this_week", expectsReply: 0.7, escalating: 0.02 },
  },
  press: {
    kind: "email",
    subject: () => "Image request: review of the winter exhibition",
    messages: [
      [
        "in",
        () =>
          "Hello,\n\nI am reviewing the winter exhibition. Could you send high-resolution images with captions and credits by Monday?\n\nMany thanks",
      ],
    ],
    triage: { intent: "press", urgency: "this_week", expectsReply: 0.88, escalating: 0.05 },
  },
  rsvp: {
    kind: "email",
    subject: () => "Re: Invitation: Winter Viewing Room opening",
    messages: [
      [
        "out",
        (c) =>
          `Dear ${c.first},\n\nWe would be delighted to welcome you to the opening of the Winter Viewing Room on Thursday, 6 to 8pm.\n\n${c.member}`,
      ],
      ["in", () => "Thank you for the invitation. Two of us will attend on Thursday."],
    ],
    triage: { intent: "event_rsvp", urgency: "later", expectsReply: 0.18, escalating: 0.01 },
  },
  payment: {
    kind: "email",
    subject: () => "Payment for my purchase",
    messages: [
      [
        "in",
        () =>
          "I sent the wire for the invoice today, with the invoice number as the reference. Could you confirm once it arrives?",
      ],
      ["out", () => "Thank you; I will confirm as soon as our bank shows the transfer."],
      ["in", () => "Just checking whether the transfer has arrived: my bank shows it as completed."],
    ],
    triage: { intent: "invoice_payment", urgency: "today", expectsReply: 0.82, escalating: 0.35 },
  },
  listing: {
    kind: "email",
    subject: () => "Your gallery has been selected for a featured listing",
    messages: [
      [
        "in",
        () =>
          "Congratulations! Northlight Gallery has been selected for a premium featured listing in the Global Art Directory. Confirm your payment details within 24 hours to secure your placement.",
      ],
    ],
    triage: { intent: "spam", urgency: "later", expectsReply: 0.03, escalating: 0 },
  },
  autoreply: {
    kind: "email",
    subject: () => "Automatic reply: Winter Viewing Room 2025",
    messages: [
      [
        "out",
        (c) =>
          `Dear ${c.first},\n\nThe Winter Viewing Room is now open, with new work by ${c.art.artist.name}. I would be glad to send you the checklist.\n\n${c.member}`,
      ],
      [
        "in",
        () =>
          "I am out of the office until January 6 with limited access to email. For urgent matters please contact my assistant.",
      ],
    ],
    triage: { intent: "other", urgency: "later", expectsReply: 0.02, escalating: 0 },
  },
  chase: {
    kind: "email",
    subject: (c) => `Re: "${c.art.title}"`,
    messages: [
      ["in", (c) => `Is ${quoted(c.art)} still available? I would like to see it this week.`],
      [
        "in",
        (c) =>
          `Following up on my message about "${c.art.title}": I have not heard back. Another gallery has offered me something similar and I need to decide by tomorrow.`,
      ],
    ],
    triage: { intent: "availability", urgency: "now", expectsReply: 0.96, escalating: 0.84 },
  },
  thanks: {
    kind: "email",
    subject: () => "Thank you for the visit",
    messages: [
      [
        "in",
        (c) =>
          `Thank you for showing us around the gallery yesterday. We very much enjoyed the new work by ${c.art.artist.name}.`,
      ],
      ["out", () => "It was a pleasure. Do let me know if you would like to see anything again."],
    ],
    triage: { intent: "other", urgency: "later", expectsReply: 0.12, escalating: 0 },
  },
  loan: {
    kind: "email",
    subject: (c) => `Loan request: ${c.art.artist.name} retrospective, 2031`,
    messages: [
      [
        "in",
        (c) =>
          `Dear ${c.member},\n\nWe are preparing a retrospective of ${c.art.artist.name} opening in spring 2031 and would like to request the loan of "${c.art.title}". Our registrar will follow up with the facility report.`,
      ],
      [
        "out",
        () =>
          "Thank you, we would be glad to discuss the loan. Could we revisit in autumn 2030, once the checklist is settled?",
      ],
      ["in", () => "That works for us. I will write again in September 2030."],
    ],
    triage: { intent: "other", urgency: "later", expectsReply: 0.2, escalating: 0 },
  },
  visit: {
    kind: "chat",
    messages: [
      [
        "in",
        (c) =>
          `Hi ${c.member}, is the ${c.art.artist.name} from the fair still available? I'm in town tomorrow and could come by.`,
      ],
    ],
    triage: { intent: "availability", urgency: "today", expectsReply: 0.91, escalating: 0.03 },
  },
  courier: {
    kind: "chat",
    messages: [["in", () => "Courier outside with the crate for pick-up. Is someone at the loading door?"]],
    triage: { intent: "logistics", urgency: "now", expectsReply: 0.95, escalating: 0.2 },
  },
  deal: {
    kind: "chat",
    messages: [
      ["out", (c) => `Here are the installation views of "${c.art.title}" you asked for.`],
      ["in", (c) => `Let's do it, I'll take "${c.art.title}". Send me the invoice?`],
    ],
    triage: { intent: "purchase_inquiry", urgency: "today", expectsReply: 0.92, escalating: 0.02 },
  },
  late: {
    kind: "chat",
    messages: [
      ["out", () => "Looking forward to seeing you at 3pm."],
      ["in", () => "Running ten minutes late, sorry!"],
    ],
    triage: { intent: "other", urgency: "now", expectsReply: 0.1, escalating: 0 },
  },
  backroom: {
    kind: "chat",
    messages: [["in", (c) => `What's the price on the large ${c.art.artist.name} in the back room?`]],
    triage: { intent: "price_request", urgency: "today", expectsReply: 0.9, escalating: 0.02 },
  },
  opening: {
    kind: "chat",
    messages: [
      ["out", () => "Opening on Thursday from 6pm, hope you can make it."],
      ["in", () => "See you Thursday!"],
    ],
    triage: { intent: "event_rsvp", urgency: "later", expectsReply: 0.05, escalating: 0 },
  },
  parcel: {
    kind: "chat",
    messages: [
      [
        "in",
        () =>
          "Your parcel is held at customs. Pay the release fee at parcel-release.example within 24h or it will be returned.",
      ],
    ],
    triage: { intent: "spam", urgency: "later", expectsReply: 0.02, escalating: 0 },
  },
} satisfies Record<string, Script>;

type ScriptKey = keyof typeof SCRIPTS;

/**
 * One thread: which connection, which script, who writes (a contact of the roster, or an outside address that
 * matches none), and its state. `snooze` is days from BASE (negative: already expired, so it reads open).
 */
interface ThreadSpec {
  member: "editor" | "viewer";
  channel: Channel;
  script: ScriptKey;
  /** An address no contact has (with the correspondent's display name, if the channel carries one). */
  outsider?: { address: string; name: string | null };
  state?: State;
  snoozeDays?: number;
  /** Unread: the inbound messages after the member's last reply stay unread. */
  unread?: boolean;
  /** Not yet seen by the triage engine. */
  untriaged?: boolean;
  /** The member corrected the engine's intent. */
  corrected?: Intent;
  assigned?: "editor" | "viewer";
  /** How long before BASE the conversation starts (days) — the newest threads lie closest to it. */
  ageDays: number;
}

/**
 * The loan request is snoozed until a fixed date years after the seed's clock, so it reads snoozed whenever
 * the demo runs (the other snooze expired before BASE and reads open).
 */
const LOAN_SNOOZE_UNTIL = Date.UTC(2030, 8, 1, 8);

const THREADS: ThreadSpec[] = [
  // The editor: email.
  { member: "editor", channel: "email", script: "chase", ageDays: 6, unread: true, assigned: "editor" },
  { member: "editor", channel: "email", script: "hold", ageDays: 3, unread: true, assigned: "editor" },
  {
    member: "editor",
    channel: "email",
    script: "price",
    ageDays: 1,
    unread: true,
    corrected: "purchase_inquiry",
  },
  { member: "editor", channel: "email", script: "availability", ageDays: 9, assigned: "viewer" },
  { member: "editor", channel: "email", script: "shipping", ageDays: 12, assigned: "viewer" },
  { member: "editor", channel: "email", script: "consign", ageDays: 20, state: "snoozed", snoozeDays: -2 },
  {
    member: "editor",
    channel: "email",
    script: "press",
    ageDays: 4,
    unread: true,
    outsider: { address: "Desk@HudsonReviewOfArt.example", name: "Hudson Review of Art" },
  },
  { member: "editor", channel: "email", script: "rsvp", ageDays: 15, state: "done" },
  { member: "editor", channel: "email", script: "payment", ageDays: 5, unread: true, assigned: "editor" },
  {
    member: "editor",
    channel: "email",
    script: "listing",
    ageDays: 2,
    state: "done",
    outsider: { address: "listings@global-art-directory.example", name: "Global Art Directory" },
  },
  { member: "editor", channel: "email", script: "autoreply", ageDays: 8, state: "done" },
  { member: "editor", channel: "email", script: "thanks", ageDays: 25, state: "done" },
  {
    member: "editor",
    channel: "email",
    script: "loan",
    ageDays: 30,
    state: "snoozed",
    snoozeDays: (LOAN_SNOOZE_UNTIL - BASE) / DAY,
  },
  { member: "editor", channel: "email", script: "price", ageDays: 0.4, unread: true, untriaged: true },
  // The editor: WhatsApp and SMS.
  { member: "editor", channel: "whatsapp", script: "visit", ageDays: 0.6, unread: true, assigned: "editor" },
  { member: "editor", channel: "whatsapp", script: "deal", ageDays: 2, assigned: "editor" },
  { member: "editor", channel: "whatsapp", script: "backroom", ageDays: 0.2, unread: true, untriaged: true },
  { member: "editor", channel: "whatsapp", script: "opening", ageDays: 14, state: "done" },
  {
    member: "editor",
    channel: "sms",
    script: "courier",
    ageDays: 0.05,
    unread: true,
    outsider: { address: "+1 (646) 555-0199", name: null },
  },
  { member: "editor", channel: "sms", script: "late", ageDays: 7, state: "done" },
  {
    member: "editor",
    channel: "sms",
    script: "parcel",
    ageDays: 1,
    state: "done",
    outsider: { address: "+44 7700 900123", name: null },
  },
  // The viewer: email and WhatsApp.
  { member: "viewer", channel: "email", script: "availability", ageDays: 3, unread: true },
  { member: "viewer", channel: "email", script: "hold", ageDays: 10, assigned: "editor" },
  { member: "viewer", channel: "email", script: "shipping", ageDays: 6, unread: true, assigned: "viewer" },
  { member: "viewer", channel: "email", script: "rsvp", ageDays: 16, state: "done" },
  { member: "viewer", channel: "email", script: "consign", ageDays: 0.3, unread: true, untriaged: true },
  { member: "viewer", channel: "whatsapp", script: "visit", ageDays: 1, unread: true, assigned: "viewer" },
  { member: "viewer", channel: "whatsapp", script: "late", ageDays: 11, state: "done" },
];

/** An address as ingest stores it (lib/addresses, the API's own rule); the seed's addresses are all valid. */
function stored(channel: Channel, address: string): string {
  const normalised = normaliseAddress(channel, address);
  if (normalised === null) throw new Error(`seed: ${address} is not an address on ${channel}`);
  return normalised;
}

const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join("");

/** The editor's and the viewer's accounts, threads and messages. */
export function seedInbox(ctx: SeedContext, people: Person[], publishedArts: Art[]): void {
  const { rng, newId, G, rows, editorId, viewerId } = ctx;
  const memberRows = rows(schema.members);
  const memberOf = { editor: editorId, viewer: viewerId };
  const nameOf = (id: string) => memberRows.find((m) => m.id === id)!.name;
  const emailOf = (id: string) => memberRows.find((m) => m.id === id)!.email;

  const accounts: [member: "editor" | "viewer", channel: Channel, provider: string, address: string][] = [
    ["editor", "email", "google", emailOf(editorId)],
    ["editor", "whatsapp", "twilio", "+1 212 555 0100"],
    ["editor", "sms", "twilio", "+1 212 555 0101"],
    ["viewer", "email", "google", emailOf(viewerId)],
    ["viewer", "whatsapp", "twilio", "+1 212 555 0102"],
  ];
  const connections = accounts.map(([member, channel, provider, address], i) => {
    const id = rng.uuid();
    const createdMs = Date.UTC(2025, 1, 1) + i * 7 * DAY;
    const row = {
      id,
      ...G,
      memberId: memberOf[member],
      channel,
      provider,
      address: stored(channel, address),
      status: "active",
      lastSyncedAt: iso(BASE - 5 * MINUTE),
      lastError: null,
      // An email connection's inbound address token, derived from its id (not drawn: the demo's draws stay as
      // they were).
      inboundToken: channel === "email" ? createHash("sha256").update(id).digest("hex").slice(0, 32) : null,
      createdAt: iso(createdMs),
      updatedAt: iso(BASE - 5 * MINUTE),
    };
    rows(schema.inboxConnections).push(row);
    return { member, channel, id, address: row.address };
  });

  // The thread's contact, by ingest's rule: same normalised address, unarchived first, then the newest.
  const byAddress = (channel: Channel, address: string): Person | null => {
    const candidates = people.filter((p) =>
      channel === "email" ? p.email === address : p.row.phone && e164(p.row.phone) === address,
    );
    candidates.sort(
      (a, b) =>
        Number(a.archived) - Number(b.archived) || b.createdMs - a.createdMs || (a.id < b.id ? 1 : -1),
    );
    return candidates[0] ?? null;
  };
  const correspondents = people.filter((p) => !p.archived);
  /** Who writes each kind of conversation: a museum asks for loans, a consignor consigns, the press asks for images. */
  const writes = (p: Person, script: ScriptKey) =>
    script === "loan"
      ? p.type === "institution"
      : script === "press"
        ? p.type === "press"
        : script === "consign"
          ? p.type === "consignor"
          : p.type !== "institution";
  const used = new Set<string>();
  /** Addresses already written from, per channel: one conversation per number and channel, as providers thread. */
  const usedAddresses = new Set<string>();
  const pickContact = (channel: Channel, script: ScriptKey): Person => {
    const addressOf = (p: Person) => stored(channel, channel === "email" ? p.email! : p.row.phone!);
    const pool = correspondents.filter(
      (p) =>
        !used.has(p.id) &&
        (channel === "email" ? p.email !== null : p.row.phone != null && e164(p.row.phone) !== null) &&
        !usedAddresses.has(`${channel} ${addressOf(p)}`) &&
        writes(p, script),
    );
    const person = rng.pick(pool);
    used.add(person.id);
    // Several contacts may share a phone number: the thread belongs to the one ingest would match.
    const address = addressOf(person);
    usedAddresses.add(`${channel} ${address}`);
    return byAddress(channel, address)!;
  };

  for (const spec of THREADS) {
    const memberId = memberOf[spec.member];
    const memberName = nameOf(memberId);
    const connection = connections.find((c) => c.member === spec.member && c.channel === spec.channel)!;
    const script: Script = SCRIPTS[spec.script];
    if ((script.kind === "email") !== (spec.channel === "email")) {
      throw new Error(`seed: the ${spec.script} conversation does not fit a ${spec.channel} thread`);
    }
    let counterpart: string;
    let contact: Person | null;
    let displayName: string | null;
    if (spec.outsider) {
      counterpart = stored(spec.channel, spec.outsider.address);
      contact = byAddress(spec.channel, counterpart);
      if (contact) throw new Error(`seed: ${counterpart} was meant to match no contact`);
      displayName = spec.outsider.name;
    } else {
      contact = pickContact(spec.channel, spec.script);
      counterpart = stored(spec.channel, spec.channel === "email" ? contact.email! : contact.row.phone!);
      // SMS carries no sender name; email and WhatsApp carry the sender's own.
      displayName = spec.channel === "sms" ? null : contact.name;
    }
    const cast: Cast = {
      first: contact ? contact.name.replace(/^Estate of /, "").split(" ")[0]! : "",
      member: memberName.split(" ")[0]!,
      art: rng.pick(publishedArts),
    };

    // Messages: hours apart for email, minutes apart for chats; the newest lies before BASE.
    const gap = script.kind === "email" ? 5 * HOUR : 20 * MINUTE;
    const startMs = Math.floor(BASE - spec.ageDays * DAY - (script.messages.length - 1) * gap);
    let ms = startMs;
    const threadId = newId("thr", startMs);
    const lastOut = script.messages.map(([dir]) => dir).lastIndexOf("out");
    const messages = script.messages.map(([dir, text], m) => {
      if (m > 0) ms += Math.round(gap * (0.5 + rng.next()));
      const body = text(cast);
      const inbound = dir === "in";
      const unread = inbound && spec.unread === true && m > lastOut;
      const row = {
        id: newId("msg", ms),
        ...G,
        threadId,
        direction: inbound ? "inbound" : "outbound",
        fromAddress: inbound ? counterpart : connection.address,
        fromName: inbound ? displayName : memberName,
        toAddresses: [inbound ? connection.address : counterpart],
        body,
        snippet: snippetOf(body),
        sentAt: iso(ms),
        readAt: inbound && !unread ? iso(ms + rng.int(2, 90) * MINUTE) : null,
        providerMessageId:
          spec.channel === "email"
            ? `<${hex(rng, 24)}@${(inbound ? counterpart : connection.address).split("@")[1]}>`
            : spec.channel === "whatsapp"
              ? `wamid.${hex(rng, 32).toUpperCase()}`
              : `SM${hex(rng, 32)}`,
        createdAt: iso(ms),
      };
      rows(schema.inboxMessages).push(row);
      return row;
    });
    // A message read later than the thread's last one still lies before BASE.
    for (const m of messages) if (m.readAt && Date.parse(m.readAt) > BASE) m.readAt = iso(BASE - MINUTE);
    const lastReadMs = Math.max(0, ...messages.map((m) => (m.readAt ? Date.parse(m.readAt) : 0)));
    const last = messages.at(-1)!;
    const lastMs = Date.parse(last.sentAt);

    const triage = spec.untriaged ? null : script.triage;
    const jitter = (p: number, spread: number) =>
      Math.round(Math.min(1, Math.max(0, p + (rng.next() - 0.5) * spread)) * 100) / 100;
    const triagedMs = lastMs + rng.int(1, 4) * MINUTE;
    const state = spec.state ?? "open";
    const snoozeUntil = state === "snoozed" ? BASE + spec.snoozeDays! * DAY : null;
    rows(schema.inboxThreads).push({
      id: threadId,
      ...G,
      memberId,
      connectionId: connection.id,
      channel: spec.channel,
      providerThreadId:
        spec.channel === "email"
          ? hex(rng, 16)
          : spec.channel === "whatsapp"
            ? `wa:${counterpart.slice(1)}`
            : `CH${hex(rng, 32)}`,
      counterpartAddress: counterpart,
      contactId: contact?.id ?? null,
      contactName: contact?.name ?? displayName,
      subject: script.subject?.(cast) ?? null,
      lastFrom: last.fromName ?? last.fromAddress,
      lastSnippet: last.snippet,
      lastMessageAt: last.sentAt,
      assignedTo: spec.assigned ? memberOf[spec.assigned] : null,
      state,
      snoozeUntil: snoozeUntil === null ? null : iso(snoozeUntil),
      unreadCount: messages.filter((m) => m.direction === "inbound" && m.readAt === null).length,
      triageIntent: triage?.intent ?? null,
      triageIntentProbability: triage ? jitter(0.82, 0.3) : null,
      triageUrgency: triage?.urgency ?? null,
      triageUrgencyProbability: triage ? jitter(0.74, 0.4) : null,
      triageExpectsReply: triage ? jitter(triage.expectsReply, 0.06) : null,
      triageEscalating: triage ? jitter(triage.escalating, 0.04) : null,
      triageCorrectedIntent: spec.corrected ?? null,
      triagedAt: triage ? iso(triagedMs) : null,
      createdAt: iso(startMs),
      updatedAt: iso(Math.min(BASE, Math.max(lastMs, lastReadMs, triage ? triagedMs : 0) + MINUTE)),
    });
  }
}
