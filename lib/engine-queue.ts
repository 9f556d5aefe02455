/**
 * The engine Queue's message (`gallery-engine`): where to look, never what to write. The database stays the
 * truth: a consumer claims the subject and judges whatever its inputs are when it reads them, so a duplicate,
 * late or lost message changes nothing that the sweep would not mend.
 */

/**
 * Failed attempts in a row after which the sweep leaves a subject alone (its messages went to the dead-letter
 * queue); a write that changes its input starts them over (services/engine/sweep.ts).
 */
export const MAX_ATTEMPTS = 10;

export const SUBJECT_KINDS = ["artwork", "inbox_thread", "contact", "contact_list", "show"] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export interface EngineMessage {
  gallery_id: string;
  kind: SubjectKind;
  subject_id: string;
  /**
   * A contact_list judged page by page: the last contact id judged and the version being judged. The next page
   * continues after it while the version holds; otherwise the list starts again from its first contact.
   */
  after?: { contact_id: string; version: number };
}

/** A body off the queue, checked: anything else is dropped (and logged) rather than retried forever. */
export function parseEngineMessage(body: unknown): EngineMessage | null {
  if (typeof body !== "object" || body === null) return null;
  const m = body as Record<string, unknown>;
  if (typeof m.gallery_id !== "string" || typeof m.subject_id !== "string") return null;
  if (!SUBJECT_KINDS.includes(m.kind as SubjectKind)) return null;
  const after = m.after as { contact_id?: unknown; version?: unknown } | undefined;
  const message: EngineMessage = {
    gallery_id: m.gallery_id,
    kind: m.kind as SubjectKind,
    subject_id: m.subject_id,
  };
  if (after && typeof after.contact_id === "string" && typeof after.version === "number") {
    message.after = { contact_id: after.contact_id, version: after.version };
  }
  return message;
}

/**
 * The engine Queue's dead-letter queue (wrangler.engine.toml), which the engine Worker also consumes. Kept out of
 * the Worker's entry module: every export of that module is an entrypoint to the runtime, which refuses a string.
 */
export const ENGINE_DEAD_LETTERS = "gallery-engine-dlq";
