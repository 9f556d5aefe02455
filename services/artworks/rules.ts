import { ApiError, type FieldIssue } from "../../lib/problem";
import { type ArtworkUpdateInput, inheritableFields } from "../../lib/schemas/artworks";

/**
 * The artwork's rules between fields, checked on the state a write leads to (the stored work, or its working
 * copy, with the request's fields over it), so that an update sending one side of a rule is held to the other
 * side as stored. The request schema checks the same rules within one request; the database checks the rules
 * that involve other rows (an edition's parent).
 */
export function checkArtworkRules(before: Record<string, unknown>, input: ArtworkUpdateInput): void {
  const merged = { ...before, ...input } as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  const sentOr = (field: string, other: string) => (field in input ? field : other);
  // A rule between two fields names the dependent one (end_year, edition_number), whichever side was sent.
  const year = merged.year as number | null;
  const endYear = merged.end_year as number | null;
  if (year != null && endYear != null && endYear < year) {
    issues.push({ location: "body", field: "end_year", message: "must not be before year" });
  }
  const number = merged.edition_number as number | null;
  const size = merged.edition_size as number | null;
  if (number != null && size != null && number > size) {
    issues.push({
      location: "body",
      field: "edition_number",
      message: "must not be greater than edition_size",
    });
  }
  if (!merged.is_edition) {
    for (const field of ["parent_artwork_id", "edition_number"] as const) {
      if (merged[field] != null) {
        issues.push({
          location: "body",
          field: sentOr(field, "is_edition"),
          message: `is only for editions: ${field} needs is_edition true`,
        });
      }
    }
  }
  if (issues.length > 0) {
    const first = issues[0]!;
    throw new ApiError("invalid_request", `Body field \`${first.field}\` ${first.message}.`, issues);
  }
}

/**
 * An edition with a parent keeps its own value for an inheritable field the request writes: the field joins
 * `edition_overrides`, unless the request sets `edition_overrides` itself.
 */
export function withEditionOverrides<T extends ArtworkUpdateInput>(
  before: Record<string, unknown>,
  input: T,
): T {
  const parent = "parent_artwork_id" in input ? input.parent_artwork_id : before.parent_artwork_id;
  const isEdition = input.is_edition ?? before.is_edition;
  if (!parent || !isEdition || input.edition_overrides !== undefined) return input;
  const current = (before.edition_overrides as string[] | undefined) ?? [];
  const written = inheritableFields.filter((f) => f in input && !current.includes(f));
  if (written.length === 0) return input;
  return { ...input, edition_overrides: [...current, ...written] };
}

/** Whether a change can alter what an edition shows through: its parent, its overrides, or a parent's values. */
export function touchesEditions(input: ArtworkUpdateInput): boolean {
  return (
    "parent_artwork_id" in input ||
    "edition_overrides" in input ||
    "is_edition" in input ||
    inheritableFields.some((f) => f in input)
  );
}
