import {
  contactReferenceChecks,
  createContactStatements,
  findContactIdByEmail,
  refuseDuplicateEmail,
} from "../../db/queries/contact-writes";
import { contactJson } from "../../db/queries/contacts";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import { Contact, type ContactCreateInput } from "../../lib/schemas/contacts";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Creates a contact with its assignees, tags and profiles. Its email (normalised by the schema) must be free
 * among the gallery's unarchived contacts: otherwise 409 naming the contact that has it. Records
 * `contact.created`.
 */
export async function createContact(ctx: ServiceContext, input: ContactCreateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const id = newId("con");
  const at = nextTimestamp();
  const object = contactJson(galleryId, id);
  try {
    return await executeWrite(ctx, {
      schema: Contact,
      statements: [
        ...contactReferenceChecks(galleryId, input),
        ...(input.email ? [refuseDuplicateEmail(galleryId, input.email, id)] : []),
        ...createContactStatements(db, galleryId, id, input, at),
      ],
      events: [changeEvent("contact.created", "contact", id, object)],
      status: 201,
      body: object,
    });
  } catch (error) {
    throw await withExistingEmail(ctx, input.email ?? null, error);
  }
}

/**
 * A write that lost the race for an email to a concurrent one (the unique index refused it after the in-batch
 * check passed): the same 409 as the check's, naming the contact that has the email now.
 */
export async function withExistingEmail(ctx: ServiceContext, email: string | null, error: unknown) {
  if (!(error instanceof ApiError) || error.code !== "conflict" || email === null) return error;
  const { constraint } = (error.details ?? {}) as { constraint?: string };
  if (constraint !== "contacts_gallery_email_key") return error;
  const existingId = await findContactIdByEmail(ctx.db, ctx.principal.galleryId, email);
  return new ApiError(
    "conflict",
    `Contact ${existingId ?? "(unknown)"} already has the email ${email}: an email belongs to one unarchived contact of the gallery.`,
    { existing_id: existingId },
  );
}
