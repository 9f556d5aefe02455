import { expect } from "vitest";
import { errorCodes } from "../../lib/problem";

/** The members of every problem+json body, sorted: exactly these, no more, no fewer. */
export const PROBLEM_FIELDS = [
  "code",
  "detail",
  "details",
  "instance",
  "request_id",
  "retry",
  "status",
  "title",
  "type",
] as const;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  retry: string;
  details: { location: string; field: string; message: string }[] | null;
  instance: string;
  request_id: string;
}

/**
 * Asserts a problem+json response with this status (and code, when given): exactly the problem fields, a known
 * code, its dictionary URL as `type` and a known retry class. When `field` is given, `details` must have an entry
 * for exactly that field at that location (query unless said). Returns the body for further checks.
 */
export async function expectProblem(
  res: Response,
  status: number,
  code?: string,
  field?: { field: string; location?: string },
): Promise<ProblemBody> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = JSON.parse(text) as ProblemBody;
  expect(Object.keys(body).sort(), text).toEqual([...PROBLEM_FIELDS]);
  expect(body.status).toBe(status);
  expect(Object.keys(errorCodes)).toContain(body.code);
  if (code) expect(body.code).toBe(code);
  expect(body.type).toBe(`https://api.test/v1/errors/${body.code}`);
  expect(["permanent", "transient", "after_delay"]).toContain(body.retry);
  expect(typeof body.title).toBe("string");
  expect(typeof body.detail).toBe("string");
  if (field) {
    const fields = (body.details ?? []).map((d) => `${d.location}:${d.field}`);
    expect(fields, text).toContain(`${field.location ?? "query"}:${field.field}`);
  }
  return body;
}
