import type { Router } from "../../http/app";
import { DRY_RUN_HEADER, DRY_RUN_PARAM } from "../../http/dry-run";
import type { OperationEntry } from "../../http/operation";
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from "../../lib/idempotency";
import type { JsonSchema } from "../../lib/openapi-examples";
import type { CredentialKind, Principal } from "../../lib/principal";
import { ApiError, type FieldIssue, PROBLEM_CONTENT_TYPE, problemBody } from "../../lib/problem";
import { missingScopes } from "../../lib/scopes";

/**
 * The MCP tools: one per operation of the registry (http/operation.ts) that a secret key or a member session can
 * call, described by the OpenAPI document the API serves (built by the API Worker: catalogue.ts) and executed by
 * the API itself (the MCP Worker, worker.ts, hands each call to the API Worker's app as an HTTP request). Here:
 * what a tool is, and how a call becomes a request and its answer a tool result. Nothing here names an operation:
 * a new operation is a new tool.
 */

/** The credentials the MCP endpoint accepts, and so the operations it offers as tools. */
export const MCP_CREDENTIALS: readonly CredentialKind[] = ["secret", "session"];

/** The argument that carries the JSON request body of an operation that takes one. */
export const BODY_ARGUMENT = "body";
/** The argument that carries a write's Idempotency-Key. */
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";
/** The argument that turns a dry-runnable operation's default dry run into the real call. */
export const CONFIRM_ARGUMENT = "confirm";

export type OpenApiDocument = ReturnType<Router["getOpenAPI31Document"]>;

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, JsonSchema>; required: string[] } & JsonSchema;
  annotations: ToolAnnotations;
  operation: OperationEntry;
  pathParameters: readonly string[];
  takesBody: boolean;
  /** The operation declares a dry run: without `confirm: true` the tool runs it as one. */
  confirms: boolean;
}

/** Whether the principal may call the tool's operation: its kind of credential and every scope it requires. */
export function allows(principal: Principal, tool: Tool): boolean {
  return (
    tool.operation.credentials.includes(principal.kind) &&
    missingScopes(principal.scopes, tool.operation.scopes).length === 0
  );
}

/** The HTTP request a tool call makes, or the problem its arguments are (nothing is called then). */
export type ToolRequest =
  | { ok: true; request: Request; idempotencyKey: string | null; dryRun: boolean }
  | { ok: false; error: ApiError };

function invalid(issues: FieldIssue[]): { ok: false; error: ApiError } {
  const first = issues[0]!;
  return {
    ok: false,
    error: new ApiError("invalid_request", `Argument \`${first.field}\` ${first.message}.`, issues),
  };
}

/** A path or query value as the URL carries it; objects as JSON, which the API then judges like any text. */
function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The request a tool call makes: path parameters into the path, `body` as the JSON body, `idempotency_key` as the
 * Idempotency-Key header (generated for a write without one), `confirm` deciding the dry run, and every other
 * argument as a query parameter, so an argument the operation does not know is refused by the API itself, as an
 * unknown query parameter. The credential headers are the MCP request's own.
 */
export function toolRequest(
  tool: Tool,
  args: Record<string, unknown>,
  origin: string,
  credentialHeaders: Headers,
): ToolRequest {
  const { operation } = tool;
  const rest: Record<string, unknown> = { ...args };
  let path = operation.path;
  for (const name of tool.pathParameters) {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null || value === "") {
      return invalid([{ location: "path", field: name, message: "is required" }]);
    }
    if (typeof value !== "string" && typeof value !== "number") {
      return invalid([{ location: "path", field: name, message: "must be a string" }]);
    }
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const headers = new Headers(credentialHeaders);
  let idempotencyKey: string | null = null;
  if (operation.idempotent) {
    const given = rest[IDEMPOTENCY_ARGUMENT];
    delete rest[IDEMPOTENCY_ARGUMENT];
    if (given !== undefined && typeof given !== "string") {
      return invalid([{ location: "header", field: IDEMPOTENCY_ARGUMENT, message: "must be a string" }]);
    }
    idempotencyKey = given ?? crypto.randomUUID();
    headers.set(IDEMPOTENCY_HEADER, idempotencyKey);
  }
  let dryRun = false;
  if (tool.confirms) {
    const confirm = rest[CONFIRM_ARGUMENT];
    delete rest[CONFIRM_ARGUMENT];
    if (confirm !== undefined && typeof confirm !== "boolean") {
      return invalid([{ location: "query", field: CONFIRM_ARGUMENT, message: "must be true or false" }]);
    }
    dryRun = confirm !== true;
  }
  let body: string | undefined;
  if (tool.takesBody && rest[BODY_ARGUMENT] !== undefined) {
    body = JSON.stringify(rest[BODY_ARGUMENT]);
    delete rest[BODY_ARGUMENT];
    headers.set("content-type", "application/json");
  }
  const url = new URL(`${origin}/v1${path}`);
  for (const [name, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, text(item));
  }
  if (dryRun) url.searchParams.set(DRY_RUN_PARAM, "true");
  return {
    ok: true,
    request: new Request(url, { method: operation.method.toUpperCase(), headers, body }),
    idempotencyKey,
    dryRun,
  };
}

/** What a tool call answers (the MCP `CallToolResult`). */
export interface ToolResult {
  [key: string]: unknown;
  content: (
    | { type: "text"; text: string }
    | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } }
  )[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The problem of a tool call refused before any request: the API's own problem body. */
export function problemResult(
  origin: string,
  error: ApiError,
  instance: string,
  requestId: string,
): ToolResult {
  const problem = problemBody(origin, error, instance, requestId);
  return {
    content: [{ type: "text", text: JSON.stringify(problem) }],
    structuredContent: problem as unknown as Record<string, unknown>,
    isError: true,
    _meta: { status: problem.status },
  };
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The tool result of the API's answer: its JSON as is (a page keeps its `next_cursor`), a problem as a tool error
 * carrying the problem, and a sentence on what an assistant does next after a write or a dry run.
 */
export async function toolResult(
  made: Extract<ToolRequest, { ok: true }>,
  response: Response,
): Promise<ToolResult> {
  const type = response.headers.get("content-type") ?? "";
  const meta: Record<string, unknown> = {
    status: response.status,
    request_id: response.headers.get("request-id"),
  };
  const notes: string[] = [];
  const key = made.idempotencyKey;
  // A dry run claims no key (http/dry-run.ts): its answer names none.
  if (key !== null && !made.dryRun) {
    meta.idempotency_key = key;
    if (response.ok) {
      const replayed = response.headers.get(REPLAYED_HEADER) === "true";
      meta.idempotent_replayed = replayed;
      notes.push(
        replayed
          ? `Replayed: this is the stored result of an earlier call with ${IDEMPOTENCY_ARGUMENT} "${key}"; nothing was done again.`
          : `Done with ${IDEMPOTENCY_ARGUMENT} "${key}": a retry with this key and the same arguments answers this result again without repeating the write.`,
      );
    } else {
      // A 503 may have applied the write; its retry must carry the key the assistant never chose.
      notes.push(
        `This call used ${IDEMPOTENCY_ARGUMENT} "${key}". Where the problem says to retry, retry with this key and the same arguments: the write is then applied once.`,
      );
    }
  }
  if (made.dryRun) {
    meta.dry_run = response.headers.get(DRY_RUN_HEADER) === "true";
    if (response.ok) {
      notes.push(
        `Dry run: nothing was changed. To do it, call this tool again with the same arguments and \`${CONFIRM_ARGUMENT}: true\`.`,
      );
    }
  }
  const noteContent = notes.map((note) => ({ type: "text" as const, text: note }));
  if (response.status === 204) {
    return {
      content: [{ type: "text", text: "Done: the API answered 204 No Content." }, ...noteContent],
      _meta: meta,
    };
  }
  if (type.startsWith("application/json") || type.startsWith(PROBLEM_CONTENT_TYPE)) {
    const text = await response.text();
    const body: unknown = JSON.parse(text);
    const structured =
      body !== null && typeof body === "object" && !Array.isArray(body)
        ? { structuredContent: body as Record<string, unknown> }
        : {};
    return {
      content: [{ type: "text", text }, ...noteContent],
      ...structured,
      ...(response.ok ? {} : { isError: true }),
      _meta: meta,
    };
  }
  // Bytes (an attachment): embedded as they are, with the type the API gave them.
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    content: [{ type: "resource", resource: { uri: made.request.url, mimeType: type, blob: base64(bytes) } }],
    ...(response.ok ? {} : { isError: true }),
    _meta: meta,
  };
}
