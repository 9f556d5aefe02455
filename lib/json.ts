/** JSON with object keys sorted: equal values serialise equally whatever order their keys were sent in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The former values of the fields a patch changes (`previous_attributes` of an `*.updated` event); fields sent
 * with the value they already had are not changes.
 */
export function previousAttributes(
  before: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(patch)) {
    if (canonicalJson(before[field]) !== canonicalJson(value)) previous[field] = before[field];
  }
  return previous;
}
