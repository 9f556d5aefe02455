/** The editor's connected channels, threads and messages. */
import * as schema from "../../db/schema";
import { BASE, DAY, HOUR, iso } from "./common";
import { type Art, isBuyer, type Person, type SeedContext } from "./context";
import { DEMO_EDITOR } from "./galleries";

/** The editor's connected channels, threads and messages. */
export function seedInbox(ctx: SeedContext, people: Person[], publishedArts: Art[]): void {
  const { rng, newId, G, rows, editorId, viewerId } = ctx;
  const buyers = people.filter(isBuyer);
  const connections = [
    ["email", "google", DEMO_EDITOR.email],
    ["whatsapp", "twilio", "+12125550100"],
    ["sms", "twilio", "+12125550101"],
  ] as const;
  const connectionIds = connections.map(([channel, provider, address]) => {
    const id = rng.uuid();
    rows(schema.inboxConnections).push({
      id,
      ...G,
      memberId: editorId,
      channel,
      provider,
      address,
      status: "active",
      lastSyncedAt: iso(BASE - 5 * 60_000),
      lastError: null,
      createdAt: iso(Date.UTC(2025, 1, 1)),
      updatedAt: iso(BASE - 5 * 60_000),
    });
    return { id, channel, address };
  });
  const threadContacts = rng.sample(
    buyers.filter((p) => p.email !== null && !p.archived),
    14,
  );
  threadContacts.forEach((person, i) => {
    const connection = connectionIds[i < 10 ? 0 : i < 12 ? 1 : 2]!;
    const art = rng.pick(publishedArts);
    const subject =
      connection.channel === "email"
        ? rng.pick([
            `Enquiry: "${art.title}" by ${art.artist.name}`,
            `Availability of works by ${art.artist.name}`,
            "Shipping quote for my recent purchase",
            "Loan request for the autumn exhibition",
            "Re: Winter Viewing Room 2025",
            "Visit to the gallery next week",
          ])
        : null;
    const count = rng.int(1, 5);
    let ms = BASE - rng.int(1, 30) * DAY - rng.int(0, 23) * HOUR;
    const createdMs = ms;
    const threadId = newId("thr", ms);
    let unread = 0;
    let last: { from: string; snippet: string; ms: number } | null = null;
    for (let m = 0; m < count; m++) {
      const inbound = m % 2 === 0 || rng.chance(0.3);
      const body = inbound
        ? rng.pick([
            `Could you send me more details on "${art.title}"? Is it still available?`,
            "Thank you, that all sounds good. What would shipping to London cost?",
            "Could we find a time to see the work in person?",
            "Is there any flexibility on the price?",
          ])
        : rng.pick([
            "Thank you for your note. I have attached the condition report and a few installation views.",
            "Yes, the work is available. I can hold it for you until Friday.",
            "Happy to arrange a private viewing; would Tuesday afternoon suit?",
          ]);
      const read = !inbound || m < count - 2 || rng.chance(0.4);
      if (inbound && !read) unread++;
      const fromName = inbound ? person.name : "Elena Marsh";
      const fromAddress =
        connection.channel === "email" ? (inbound ? person.email : DEMO_EDITOR.email) : connection.address;
      rows(schema.inboxMessages).push({
        id: newId("msg", ms),
        ...G,
        threadId: threadId,
        direction: inbound ? "inbound" : "outbound",
        fromAddress: fromAddress,
        fromName: fromName,
        toAddresses: [
          inbound
            ? connection.channel === "email"
              ? DEMO_EDITOR.email
              : connection.address
            : (person.email ?? ""),
        ],
        body,
        snippet: body.slice(0, 120),
        sentAt: iso(ms),
        readAt: inbound && read ? iso(ms + HOUR) : null,
        providerMessageId: `${connection.channel}-${i}-${m}`,
        createdAt: iso(ms),
      });
      last = { from: fromName, snippet: body.slice(0, 120), ms };
      ms += rng.int(1, 30) * HOUR;
    }
    const state = rng.weighted({ open: 60, snoozed: 15, done: 25 });
    const triaged = rng.chance(0.8);
    rows(schema.inboxThreads).push({
      id: threadId,
      ...G,
      memberId: editorId,
      connectionId: connection.id,
      channel: connection.channel,
      providerThreadId: `${connection.channel}-thread-${i + 1}`,
      contactId: person.id,
      contactName: person.name,
      subject,
      lastFrom: last!.from,
      lastSnippet: last!.snippet,
      lastMessageAt: iso(last!.ms),
      assignedTo: rng.chance(0.7) ? editorId : viewerId,
      state,
      snoozeUntil: state === "snoozed" ? iso(BASE + rng.int(1, 7) * DAY) : null,
      unreadCount: unread,
      triageIntent: triaged
        ? rng.pick(["purchase_inquiry", "pricing_question", "logistics", "loan_request", "scheduling"])
        : null,
      triageIntentProbability: triaged ? Math.round((0.55 + rng.next() * 0.44) * 100) / 100 : null,
      triageUrgency: triaged ? rng.pick(["now", "today", "this_week", "later", "none"]) : null,
      triageUrgencyProbability: triaged ? Math.round((0.5 + rng.next() * 0.49) * 100) / 100 : null,
      triageExpectsReply: triaged ? Math.round(rng.next() * 100) / 100 : null,
      triageEscalating: triaged ? Math.round(rng.next() * 0.6 * 100) / 100 : null,
      triageCorrectedIntent: triaged && rng.chance(0.15) ? "pricing_question" : null,
      triagedAt: triaged ? iso(last!.ms + 60_000) : null,
      createdAt: iso(createdMs),
      updatedAt: iso(last!.ms + 60_000),
    });
  });
}
