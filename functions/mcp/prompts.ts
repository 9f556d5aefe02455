/**
 * Prompts for common gallery tasks. Each names the tools it calls, by operation id; a prompt is listed to a caller
 * only when every one of its tools is (functions/mcp/server.ts), and a test holds each name to an operation of the
 * registry, so a renamed operation cannot leave a prompt pointing at nothing.
 */

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface Prompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The tools the prompt tells the assistant to call. */
  tools: readonly string[];
  text(args: Record<string, string | undefined>): string;
}

export const prompts: readonly Prompt[] = [
  {
    name: "triage_inbox",
    title: "Triage today's inbox",
    description:
      "Go through your inbox threads in triage order and say which need an answer today, and why. Needs a member session: the inbox is each member's own.",
    arguments: [],
    tools: ["listInboxThreads", "getInboxThreadTriage", "listInboxThreadMessages", "getContact"],
    text: () =>
      [
        "Triage my gallery inbox for today.",
        '1. Call `listInboxThreads` with `priority: "true"`, `state: "open"` and `limit: 50`: it answers my open threads in triage order (expects_reply, then urgency, then intent).',
        "2. For each thread whose triage says it expects a reply with urgency `now` or `today`, call `getInboxThreadTriage` to see why it is judged so, and `listInboxThreadMessages` to read the latest messages.",
        "3. Where the thread has a `contact_id`, call `getContact` to see who the sender is (a collector's history changes what an answer should say).",
        "Answer with a short list, most urgent first: the sender, what they ask, why it is urgent (quote the deciding phrase), and a one-line suggestion of what to reply. Change nothing.",
      ].join("\n"),
  },
  {
    name: "find_buyers",
    title: "Find buyers for a work",
    description:
      "Find the collectors most likely to buy one artwork, with the evidence for each, and draft an offer to them.",
    arguments: [{ name: "artwork_id", description: "The artwork (`art_…`).", required: true }],
    tools: [
      "getArtwork",
      "getArtworkJudgments",
      "createOffer",
      "replaceOfferItems",
      "listRecommendedOfferRecipients",
      "getContactMatch",
    ],
    text: (args) =>
      [
        `Find the best buyers for artwork ${args.artwork_id ?? "(ask me which artwork)"}.`,
        "1. Call `getArtwork` and `getArtworkJudgments` to know the work and whether it is ready to offer (readiness and any condition disclosure).",
        "2. Call `createOffer` with a title naming the work: a draft offer sends nothing. Then `replaceOfferItems` to put this artwork on it.",
        "3. Call `listRecommendedOfferRecipients` for the offer: the contacts whose matches on the work clear the floor, best first.",
        "4. For the three best, call `getContactMatch` with the contact and its match to read the evidence.",
        "Answer with the three contacts, the probability and the strongest evidence for each, and the draft offer's id. Do not add recipients or send the offer until I say so.",
      ].join("\n"),
  },
  {
    name: "prepare_viewing_room",
    title: "Prepare a viewing room",
    description:
      "Choose ready works for a viewing room, check them, and set the room up as a private draft for review.",
    arguments: [
      { name: "theme", description: "What the room is about: an artist, a show, a medium.", required: true },
    ],
    tools: ["listArtworks", "getArtworkJudgments", "createViewingRoom", "getViewingRoom"],
    text: (args) =>
      [
        `Prepare a viewing room about: ${args.theme ?? "(ask me the theme)"}.`,
        "1. Call `listArtworks` (follow `next_cursor` as `cursor` while it is not null) and pick up to twelve available works that fit the theme.",
        "2. For each, call `getArtworkJudgments`: leave out works that are not ready, and note any condition disclosure a visitor must see.",
        '3. Call `createViewingRoom` with a title, `visibility: "private"` and the chosen works in `artworks`, then `getViewingRoom` to check what it holds.',
        "Answer with the room's id, the works in it and those left out with the reason. Do not make it public.",
      ].join("\n"),
  },
];
