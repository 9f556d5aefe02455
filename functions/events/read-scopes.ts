import { operationRegistry } from "../../http/operation";
import {
  catalogueTypes,
  type EventReadScopes,
  eventCatalogue,
  eventObjectReaders,
} from "../../lib/event-catalogue";
import type { EventType } from "../../lib/event-types";

let resolved: EventReadScopes | undefined;

/**
 * Each event type's read scopes, taken from the declaration of the operation that reads its object
 * (`eventObjectReaders`). Resolved at the first request, when every route module has declared its operation; a
 * reader that names no declared operation fails loudly rather than leaving a type readable by anyone.
 */
export function eventReadScopes(): EventReadScopes {
  if (resolved) return resolved;
  const scopesOf = new Map(operationRegistry.map((op) => [op.operationId, op.scopes]));
  const out = {} as Record<EventType, readonly string[]>;
  for (const type of catalogueTypes) {
    const reader = eventObjectReaders[eventCatalogue[type].resourceType];
    const scopes = scopesOf.get(reader);
    if (!scopes) throw new Error(`event type ${type}: its reader ${reader} is not a declared operation`);
    out[type] = scopes;
  }
  resolved = out;
  return resolved;
}
