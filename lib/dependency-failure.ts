/**
 * Which failures are a dependency being unreachable or asking to be retried later, rather than a bug: the one
 * place the database driver's and the bindings' error kinds are read. The router answers them 503
 * `service_unavailable` with `Retry-After` (http/app.ts); everything else stays a 500.
 */

/**
 * What `details.dependency` names: the database, the KV namespaces (the credential, idempotency and public
 * generation caches), R2 (stored uploads), a Queue, the rate limiter. A kind, never a host or a binding's id.
 */
export type Dependency = "database" | "kv" | "object_storage" | "queue" | "rate_limiter";

/** The words a problem's detail uses for each dependency. */
export const DEPENDENCY_NAMES: Record<Dependency, string> = {
  database: "database",
  kv: "key-value store",
  object_storage: "object storage",
  queue: "queue",
  rate_limiter: "rate limiter",
};

/**
 * A binding's failure, as the binding's call threw it (`cause`), with which dependency threw it. Workers bindings
 * say which product failed in some of their errors (KV's "KV GET failed: …", R2's codes) and not in others: a
 * backing that cannot be reached is workerd's bare "Network connection lost.", whichever binding it was. The
 * bindings are wrapped once where the Worker receives them (`withDependencyNames`), so every error of theirs
 * carries the name; whether it is the dependency being unavailable is still decided here, by its kind.
 */
export class DependencyError extends Error {
  override readonly name = "DependencyError";
  constructor(
    readonly dependency: Dependency,
    /** The binding (or `pool`), for the log: never in a response. */
    readonly binding: string,
    cause: unknown,
  ) {
    super(`${binding} (${dependency}) failed`, { cause });
  }
}

/**
 * SQLSTATEs of a database that cannot serve now: connection exceptions (class 08), a server shutting down,
 * crashed or starting (57P01–57P03), too many connections (53300), out of memory or disk (53200, 53100). A
 * statement timeout (57014) is not among them: the query itself caused it.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53[123]00)$/;

/** The driver's own words for a database it could not reach or that answered with a server error. */
const UNREACHABLE_MESSAGE = /^(Error connecting to database|Server error \(HTTP status 5\d\d\))/;

/**
 * KV's words for an answer it could not use (workerd: `KV <METHOD> failed: <status> <text>`): too many requests
 * (429: more than one write a second to a key, or the account's limits) and any server error. Other 4xx answers
 * (a key too long, a value too large) are the request's own making.
 */
const KV_UNAVAILABLE = /^KV [A-Z_]+ failed: (429|5\d\d)\b/;

/**
 * R2's codes for "retry later" (workerd: `<action>: <message> (<code>)`): 10001 internal error, 10043 service
 * unavailable, 10058 too many requests ("Reduce your rate…"), and 0, an error answer R2 did not describe (a
 * failing front, not R2's verdict on the request). Other codes (no such key, precondition, too large) are not.
 */
const R2_UNAVAILABLE = /^[a-zA-Z]+: .*\((0|10001|10043|10058)\)$/;

/** A Queue that refused a send for now (workerd: `Queue send failed: <status text>`), not for the message. */
const QUEUE_UNAVAILABLE =
  /^Queue (send|sendBatch) failed: (Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out)/i;

/** workerd's words for a subrequest to a binding's backing that failed on the way: nothing says which binding. */
const CONNECTION_LOST = /^(Uncaught Error: )?(Network connection lost|internal error)/;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  retryable?: unknown;
  cause?: unknown;
  sourceError?: unknown;
  error?: unknown;
}

/**
 * The errors `error` wraps: drizzle's query error wraps the driver's, the driver's wraps fetch's, a
 * DependencyError the binding's, the WebSocket pool's ErrorEvent its `error`.
 */
function* chain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === "object" && current !== null && !seen.has(current)) {
    seen.add(current);
    const e = current as ErrorLike;
    yield e;
    current = e.cause ?? e.sourceError ?? e.error;
  }
}

/** The dependency an error's own kind names, when that kind means "unavailable, try later"; else null. */
function unavailableKind(e: ErrorLike): Dependency | null {
  if (typeof e.code === "string" && UNAVAILABLE_SQLSTATE.test(e.code)) return "database";
  const message = typeof e.message === "string" ? e.message : "";
  // Only the database driver's errors are read by their words: a fetch failing elsewhere is not the database.
  if (e.name === "NeonDbError" && UNREACHABLE_MESSAGE.test(message)) return "database";
  if (KV_UNAVAILABLE.test(message)) return "kv";
  if (QUEUE_UNAVAILABLE.test(message)) return "queue";
  return null;
}

/** A failure that means "unavailable" only once the binding that threw it is known. */
function unavailableWhenNamed(e: ErrorLike): boolean {
  const message = typeof e.message === "string" ? e.message : "";
  return e.retryable === true || CONNECTION_LOST.test(message) || R2_UNAVAILABLE.test(message);
}

/** The dependency that failed, when `error` is one being unreachable or unavailable; null for anything else. */
export function failedDependency(error: unknown): Dependency | null {
  let named: Dependency | null = null;
  for (const e of chain(error)) {
    if (e instanceof DependencyError) {
      // The rate limiter is only ever asked with the policies' own constants: its failing is never the request's.
      if (e.dependency === "rate_limiter") return e.dependency;
      named ??= e.dependency;
    }
    const kind = unavailableKind(e);
    if (kind) return named ?? kind;
    if (named && unavailableWhenNamed(e)) return named;
  }
  return null;
}

/** How long a client is told to wait before retrying an unavailable dependency. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/**
 * An error as an operator's read or a log line keeps it: the name and message of its innermost cause (500
 * characters at most), never a stack, nor the query text and parameters a query builder's wrapper carries (they
 * would copy a gallery's data there).
 */
export function errorSummary(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  const text = inner instanceof Error ? `${inner.name}: ${inner.message}` : String(inner);
  return text.slice(0, 500);
}

/** The bindings the API Worker's requests wait on, and what each is. */
const NAMED_BINDINGS = {
  EDGE_KV: "kv",
  UPLOADS: "object_storage",
  ENGINE_QUEUE: "queue",
} as const satisfies Record<string, Dependency>;

/** `binding` with every method's failure (thrown or rejected) a DependencyError naming it. */
function named<T extends object>(binding: T, name: string, dependency: Dependency): T {
  const wrap = (error: unknown) => {
    throw new DependencyError(dependency, name, error);
  };
  return new Proxy(binding, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = Reflect.apply(value, target, args);
        } catch (error) {
          wrap(error);
        }
        return result instanceof Promise ? result.catch(wrap) : result;
      };
    },
  });
}

const namedEnvs = new WeakMap<object, object>();

/**
 * The Worker's bindings with their errors naming their dependency (DependencyError), made once per `env` object.
 * The API Worker's entry point passes this to the router, so no handler or service catches a binding's error to
 * say which one it was. (The rate limiter's failures are handled where limits are enforced: lib/rate-limits.ts.)
 */
export function withDependencyNames<E extends object>(env: E): E {
  const known = namedEnvs.get(env);
  if (known) return known as E;
  const wrapped: Record<string, unknown> = { ...(env as Record<string, unknown>) };
  for (const [binding, dependency] of Object.entries(NAMED_BINDINGS)) {
    const value = wrapped[binding];
    if (typeof value === "object" && value !== null) wrapped[binding] = named(value, binding, dependency);
  }
  namedEnvs.set(env, wrapped);
  return wrapped as E;
}
