/**
 * Which failures are a dependency being unreachable or asking to be retried later, rather than a bug: the one
 * place the database driver's (and the bindings') error kinds are read. The router answers them 503
 * `service_unavailable` with `Retry-After` (http/app.ts); everything else stays a 500.
 */

export type Dependency = "database";

/**
 * SQLSTATEs of a database that cannot serve now: connection exceptions (class 08), a server shutting down,
 * crashed or starting (57P01–57P03), too many connections (53300), out of memory or disk (53200, 53100). A
 * statement timeout (57014) is not among them: the query itself caused it.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53[123]00)$/;

/** The driver's own words for a database it could not reach or that answered with a server error. */
const UNREACHABLE_MESSAGE = /^(Error connecting to database|Server error \(HTTP status 5\d\d\))/;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  sourceError?: unknown;
}

/** The errors `error` wraps (drizzle's query error wraps the driver's; the driver's wraps fetch's). */
function* chain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === "object" && current !== null && !seen.has(current)) {
    seen.add(current);
    const e = current as ErrorLike;
    yield e;
    current = e.cause ?? e.sourceError;
  }
}

/** The dependency that failed, when `error` is one being unreachable or unavailable; null for anything else. */
export function failedDependency(error: unknown): Dependency | null {
  for (const e of chain(error)) {
    if (typeof e.code === "string" && UNAVAILABLE_SQLSTATE.test(e.code)) return "database";
    // Only the database driver's errors are read by their words: a fetch failing elsewhere is not the database.
    const driver = e.name === "NeonDbError";
    if (driver && typeof e.message === "string" && UNREACHABLE_MESSAGE.test(e.message)) return "database";
  }
  return null;
}

/** How long a client is told to wait before retrying an unavailable dependency. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;
