import { contactListJson, insertContactList } from "../../db/queries/contact-lists";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { ContactList, type ContactListCreateInput, storedListQuery } from "../../lib/schemas/contact-lists";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Creates a list: static (members added one by one) or dynamic (whoever matches `dynamic_query`), which it stays.
 * Without `is_dynamic`, a list with a `dynamic_query` is dynamic. Records `contact_list.created`.
 */
export function createContactList(ctx: ServiceContext, input: ContactListCreateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const id = newId("list");
  const at = nextTimestamp();
  const isDynamic = input.is_dynamic ?? input.dynamic_query !== undefined;
  const object = contactListJson(galleryId, id);
  return executeWrite(ctx, {
    schema: ContactList,
    statements: [
      insertContactList(db, {
        id,
        gallery_id: galleryId,
        title: input.title,
        description: input.description ?? null,
        kind: input.kind ?? "pipeline",
        is_dynamic: isDynamic,
        dynamic_query: input.dynamic_query === undefined ? null : storedListQuery(input.dynamic_query),
        created_at: at,
        updated_at: at,
      }),
    ],
    events: [changeEvent("contact_list.created", "contact_list", id, object)],
    status: 201,
    body: object,
  });
}
