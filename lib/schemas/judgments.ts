import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut } from "../time";
import { readinessValues } from "./artworks";
import {
  intentMeanings,
  intentText,
  triageIntents,
  triageUrgencies,
  urgencyMeanings,
  urgencyText,
} from "./inbox";

/**
 * The explain reads (design §7): each judged value the API returns elsewhere (an artwork's readiness and
 * disclosure, a thread's triage, a list's rubric verdicts) with everything it rests on, as the engine stored it.
 * The resources themselves keep only the specification's fields; the evidence lives here.
 */

const probability = z.number().min(0).max(1);
/** The engine's confidence in the value it gave. */
const confidence = probability.openapi({ description: "The engine's confidence (0 to 1) in `value`." });

const model = z.string().openapi({
  description: "The judge that produced the value, as `name@version`.",
  example: "readiness-rules@1",
});

const judgedAt = TimestampOut.openapi({ description: "When the engine judged it." });

const stale = z.boolean().openapi({
  description:
    "true while a change to what was judged waits for the engine: the values shown are from before that change.",
});

/** A phrase that decided a judgment, or was weighed and set aside, with its character offsets. */
export const JudgmentPhrase = z
  .object({
    source: z.string().openapi({
      description: "Which text the offsets index: `condition_notes`, `message`, `subject`, …",
      example: "condition_notes",
    }),
    phrase: z.string().openapi({
      description: "The words exactly as written: the text's characters from `start` to `end`.",
      example: "small loss to the lower left corner",
    }),
    start: z.number().int().min(0).openapi({ description: "Offset of the first character (UTF-16 units)." }),
    end: z.number().int().min(0).openapi({ description: "Offset just past the last character." }),
    effect: z.string().openapi({
      description: "What the phrase did, in plain words.",
      example: "describes a loss to the work",
    }),
    decisive: z.boolean().openapi({
      description:
        "true when it pushed the judgment towards its value; false when it was weighed and set aside.",
    }),
  })
  .openapi("JudgmentPhrase");

// ---------------------------------------------------------------------------------------------------------
// Artworks

export const ReadinessExplanation = z
  .object({
    value: z.enum(readinessValues).openapi({
      description:
        "`ready` (everything a buyer-facing record needs), `thin` (shown, but lacking some of it) or `empty` (too little to show).",
    }),
    probability: confidence,
    missing: z.array(z.string()).openapi({
      description:
        "What the record needs and lacks, as stable codes: `title`, `artist`, `image`, `medium`, `dimensions`, `year`, `price`, `description`, `provenance` (secondary-market works).",
      example: ["dimensions", "provenance"],
    }),
    present: z.array(z.string()).openapi({ description: "What it has, in the same codes." }),
    model,
    judged_at: judgedAt,
  })
  .openapi("ReadinessExplanation");

export const DisclosureExplanation = z
  .object({
    value: z.boolean().openapi({
      description:
        "true when the condition notes describe, about the work itself, something a buyer must be told: damage, loss, deterioration, instability, restoration or another intervention, replaced parts, a fair or poor grade.",
    }),
    probability: confidence,
    phrases: z.array(JudgmentPhrase).openapi({
      description:
        "The phrases of the condition notes that decided it and those weighed and set aside (a negated flaw, the frame rather than the work), with offsets into the notes.",
    }),
    model,
    judged_at: judgedAt,
  })
  .openapi("DisclosureExplanation");

export const ArtworkJudgments = z
  .object({
    artwork_id: z.string(),
    readiness: ReadinessExplanation.nullable().openapi({
      description: "null until the engine judged the work.",
    }),
    disclosure: DisclosureExplanation.nullable().openapi({
      description: "null until the engine judged the work's condition notes.",
    }),
    stale,
  })
  .openapi("ArtworkJudgments", {
    description:
      "Why a work is judged as it is: its readiness with what it has and lacks, and its disclosure with the deciding phrases of its condition notes.",
  });

// ---------------------------------------------------------------------------------------------------------
// Inbox

function distribution<const V extends readonly [string, ...string[]]>(
  values: V,
  meanings: Record<V[number], string>,
  description: string,
) {
  const shape = Object.fromEntries(
    values.map((v) => [
      v,
      probability.openapi({ description: `Belief (0 to 1) in \`${v}\`: ${meanings[v as V[number]]}.` }),
    ]),
  ) as {
    [K in V[number]]: typeof probability;
  };
  return z.object(shape).openapi({ description });
}

export const TriageExplanation = z
  .object({
    message_id: z.string().nullable().openapi({
      description:
        "The inbound message that was judged (the thread's latest when it was judged); null when unknown.",
    }),
    intent: z.enum(triageIntents).openapi({ description: `The engine's reading of the ask. ${intentText}` }),
    intent_probability: probability.openapi({ description: "Belief (0 to 1) in `intent`." }),
    intent_distribution: distribution(
      triageIntents,
      intentMeanings,
      "The belief in every intent, summing to 1.",
    ),
    urgency: z.enum(triageUrgencies).openapi({ description: urgencyText }),
    urgency_probability: probability.openapi({ description: "Belief (0 to 1) in `urgency`." }),
    urgency_distribution: distribution(
      triageUrgencies,
      urgencyMeanings,
      "The belief in every urgency, summing to 1.",
    ),
    expects_reply: probability.openapi({
      description: "Belief that the sender waits for an answer or a decision.",
    }),
    escalating: probability.openapi({
      description: "Belief that the sender is chasing, frustrated with the gallery, or about to walk away.",
    }),
    phrases: z.array(JudgmentPhrase).openapi({
      description: "The phrases of the judged message that decided the triage, with offsets into it.",
    }),
    signals: z.array(z.string()).openapi({
      description: "Facts of the thread that were weighed, in plain words.",
      example: ["third unanswered inbound message", "sent on whatsapp at 21:40"],
    }),
    model,
    judged_at: judgedAt,
  })
  .openapi("TriageExplanation");

export const ThreadTriage = z
  .object({
    thread_id: z.string(),
    corrected_intent: z.enum(triageIntents).nullable().openapi({
      description: "The intent a member set instead of the engine's; the engine never overwrites it.",
    }),
    triage: TriageExplanation.nullable().openapi({
      description: "null until the engine triaged the thread.",
    }),
    stale,
  })
  .openapi("ThreadTriage", { description: "Why one of your threads is triaged as it is." });

// ---------------------------------------------------------------------------------------------------------
// Contact lists

export const RubricReason = z
  .object({
    criterion: z.string().openapi({
      description: "The part of the description it tests.",
      example: "bought works on paper",
    }),
    holds: z.boolean().openapi({ description: "Whether the contact meets that part." }),
    kind: z.string().openapi({
      description: "What decided it: `sale`, `interaction`, `note`, `engagement`, `field`, …",
      example: "sale",
    }),
    id: z.string().nullable().openapi({ description: "The id of that record, where it has one." }),
    label: z.string().openapi({
      example: "Bought Untitled (Ochre), etching, 2023",
      description: "That record in plain words.",
    }),
    at: TimestampOut.nullable().openapi({ description: "When that record happened, where known." }),
  })
  .openapi("RubricReason");

export const RubricJudgment = z
  .object({
    contact_id: z.string(),
    verdict: z.boolean().openapi({ description: "Whether the contact fits the list's description." }),
    probability: probability.openapi({ description: "The engine's confidence (0 to 1) in `verdict`." }),
    reasons: z.array(RubricReason).openapi({
      description:
        "Each part of the description tested against the contact, with the record that decided it: one that does not hold makes the verdict false.",
    }),
    model,
    judged_at: judgedAt,
  })
  .openapi("RubricJudgment");

export const rubricStates = ["not_judged", "readable", "unreadable"] as const;

export const ListRubric = z
  .object({
    described_as: z
      .string()
      .openapi({ description: "The list's description the engine judges contacts by." }),
    state: z.enum(rubricStates).openapi({
      description:
        "`not_judged` (the engine has not read the description yet: no judgments), `readable` (contacts are judged by it) or `unreadable` (it could not be read; see `reason`).",
    }),
    reason: z
      .string()
      .nullable()
      .openapi({ description: "Why the description could not be read; null otherwise." }),
    summary: z
      .string()
      .nullable()
      .openapi({ description: "How the engine read the description, in plain words; null unless readable." }),
    model: model.nullable(),
    judged_at: judgedAt.nullable(),
    stale,
  })
  .openapi("ListRubric");

export const RubricJudgmentList = z
  .object({
    rubric: ListRubric.nullable().openapi({
      description: "null when the list has no `described_as` (a static list, or a dynamic one without it).",
    }),
    data: z.array(RubricJudgment),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: "Pass as `cursor` for the next page; null at the end." }),
  })
  .openapi("RubricJudgmentList");

export const RubricJudgmentsQueryContact = idString("con").optional().openapi({
  description: "Only this contact's judgment (an empty page when it has none).",
});
