/**
 * Fair-submission runs in each status: one succeeded (its gated submit approved), one awaiting approval of its
 * gated submit, one running mid-flight, one failed at sign-in with its error, one cancelled rather than pay a
 * gated application fee. Each action is {tool, gated, approved, at}; a non-gated action needs no approval.
 */
import * as schema from "../../db/schema";
import type { FairRunAction } from "../../db/schema/fair-runs";
import type { FairRunStatus } from "../../lib/schemas/fair-runs";
import { BASE, DAY, iso, MINUTE } from "./common";
import type { SeedContext } from "./context";

/** The tools a run calls, in order; the gated ones wait for a member's approval. */
const GATED = new Set(["submit_application", "pay_application_fee"]);

interface RunSpec {
  portal: string;
  status: FairRunStatus;
  tools: string[];
  /** Gated tools a member approved. */
  approved: string[];
  error: string | null;
  /** Days before BASE the run started. */
  ageDays: number;
  /** The fair's list of works (`fair_list_id`): the gallery's contact list of the fair's pipeline. */
  list: boolean;
}

const RUNS: RunSpec[] = [
  {
    portal: "portal.northsea-art-fair.example",
    status: "succeeded",
    tools: [
      "open_portal",
      "sign_in",
      "fill_application",
      "upload_images",
      "submit_application",
      "confirm_receipt",
    ],
    approved: ["submit_application"],
    error: null,
    ageDays: 12,
    list: true,
  },
  {
    portal: "apply.pacific-contemporary.example",
    status: "awaiting_approval",
    tools: ["open_portal", "sign_in", "fill_application", "upload_images", "submit_application"],
    approved: [],
    error: null,
    ageDays: 2,
    list: true,
  },
  {
    portal: "booths.harbourline-fair.example",
    status: "running",
    tools: ["open_portal", "sign_in", "fill_application"],
    approved: [],
    error: null,
    ageDays: 0.02,
    list: false,
  },
  {
    portal: "portal.alpine-art-week.example",
    status: "failed",
    tools: ["open_portal", "sign_in"],
    approved: [],
    error:
      "Sign-in failed: the portal rejected the saved credentials (HTTP 401). Update the login and start a new run.",
    ageDays: 5,
    list: false,
  },
  {
    portal: "apply.lagoon-photo-fair.example",
    status: "cancelled",
    tools: ["open_portal", "sign_in", "fill_application", "pay_application_fee"],
    approved: [],
    error: null,
    ageDays: 8,
    list: false,
  },
];

/** The runs, started by the editor; `lists` are the gallery's contact lists (the first is the fair pipeline). */
export function seedFairRuns(ctx: SeedContext, lists: string[]): void {
  const { rng, newId, G, rows, editorId } = ctx;
  for (const run of RUNS) {
    const createdMs = Math.floor(BASE - run.ageDays * DAY);
    let ms = createdMs;
    const actions: FairRunAction[] = run.tools.map((tool) => {
      ms += rng.int(1, 6) * MINUTE;
      return { tool, gated: GATED.has(tool), approved: run.approved.includes(tool), at: iso(ms) };
    });
    // A cancelled run was stopped a while after its last action; the others changed last with it.
    const updatedMs = run.status === "cancelled" ? ms + 3 * 60 * MINUTE : ms;
    rows(schema.fairRuns).push({
      id: newId("fair", createdMs),
      ...G,
      userId: editorId,
      portalDomain: run.portal,
      fairListId: run.list ? lists[0]! : null,
      status: run.status,
      stepCount: actions.length,
      actions,
      error: run.error,
      createdAt: iso(createdMs),
      updatedAt: iso(updatedMs),
    });
  }
}
