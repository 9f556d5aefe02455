import { type EventReadScopes, subscriptionScopes } from "../../lib/event-catalogue";
import type { Principal } from "../../lib/principal";
import { ApiError } from "../../lib/problem";

/**
 * An endpoint delivers the events it is subscribed to, objects whole, to a URL its manager chose: so whoever
 * creates or changes it must hold the read scopes of every type it subscribes to (the scopes that would show
 * those events in GET /gallery/events). 403 naming the missing scopes and the patterns that need them.
 */
export function requireSubscriptionScopes(
  principal: Principal,
  readScopes: EventReadScopes,
  eventTypes: readonly string[],
): void {
  const { required, missing, patterns } = subscriptionScopes(readScopes, eventTypes, principal.scopes);
  if (missing.length === 0) return;
  throw new ApiError(
    "forbidden",
    `Subscribing to ${patterns.map((p) => `\`${p}\``).join(", ")} needs the scope(s) ${missing.join(", ")}, which the credential lacks: an endpoint may receive only events its manager could read.`,
    { missing_scopes: missing, required_scopes: required, event_types: patterns },
  );
}
