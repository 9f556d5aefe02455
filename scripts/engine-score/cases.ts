/** The labelled cases' shapes, shared by the scoring (scripts/engine-score/) and fitting (scripts/engine-train/) scripts. */
import type { Channel, Intent, TriageInput, Urgency } from "../../lib/engine/types";

export interface LabelledMessage {
  id: string;
  channel: Channel;
  sent_at: string;
  history: { direction: "inbound" | "outbound"; body: string; sent_at: string }[];
  subject: string | null;
  body: string;
  intent: Intent;
  urgency: Urgency;
  expects_reply: boolean;
  escalating: boolean;
  why: string;
  /** ISO 639-1 code of the body's language (cases written since the multilingual rounds). */
  lang?: string;
}

export interface LabelledNote {
  id: string;
  notes: string;
  disclosure: boolean;
  why: string;
  /** ISO 639-1 code of the notes' language (cases written since the multilingual rounds). */
  lang?: string;
}

/** A labelled case as the judge's input: its history, then the message itself. */
export function triageInputOf(c: LabelledMessage): TriageInput {
  return {
    channel: c.channel,
    timeZone: "Europe/London",
    messages: [
      ...c.history.map((h) => ({
        direction: h.direction,
        body: h.body,
        subject: null,
        sentAt: h.sent_at,
        fromName: null,
        fromAddress: null,
      })),
      {
        direction: "inbound",
        body: c.body,
        subject: c.subject,
        sentAt: c.sent_at,
        fromName: null,
        fromAddress: null,
      },
    ],
  };
}
