import type { Principal } from "../../lib/principal";

/**
 * Whether the caller reads a contact's private notes, which are for the gallery's editors. A member session
 * counts by its role; an API key counts as a viewer when it is read-only (every scope `:read`) and as an editor
 * when it may change anything.
 */
export function readsPrivateNotes(principal: Principal): boolean {
  if (principal.kind === "session") return principal.role === "editor";
  return !principal.readOnly;
}
