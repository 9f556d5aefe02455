/**
 * The layers of the code and the one direction imports flow (checked by `npm run check`):
 *
 *   functions/  routes and Worker entries: parse, call one service, respond
 *   http/       the HTTP mechanisms every route gets: app, auth, idempotency, operation(), lists, responses
 *   services/   domain rules of each write, with an explicit context (no Hono)
 *   db/         drizzle schema, resource descriptions, tenant-scoped queries and statements
 *   lib/        leaf modules: shared types, API schemas (lib/schemas), problems, ids, crypto, cursors, time
 *
 * A layer imports only the layers below it; no module imports itself through a cycle.
 */
module.exports = {
  forbidden: [
    { name: "no-cycles", severity: "error", from: {}, to: { circular: true } },
    {
      name: "lib-is-a-leaf",
      comment: "lib/ imports only lib/ and packages.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(db|services|functions|http)/" },
    },
    {
      name: "db-below-services",
      comment: "db/ imports only db/ and the leaf lib/.",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(services|functions|http)/" },
    },
    {
      name: "services-below-http",
      comment: "services/ never see Hono or routes: they take a ServiceContext.",
      severity: "error",
      from: { path: "^services/" },
      to: { path: "^(functions|http)/|(^|node_modules/)hono(/|$)" },
    },
    {
      name: "http-below-functions",
      severity: "error",
      from: { path: "^http/" },
      to: { path: "^functions/" },
    },
    {
      name: "handlers-without-sql",
      comment:
        "Route handlers call services; SQL and drizzle live in db/ (the cron entry only wires the sender).",
      severity: "error",
      from: { path: "^functions/" },
      to: { path: "(^|node_modules/)drizzle-orm(/|$)|^db/(client|schema)" },
    },
    {
      name: "cron-without-language-model",
      comment:
        "The cron Worker (the webhook Queue's consumer) loads no language model on a cold start: the judges and the fits run in the engine Worker.",
      severity: "error",
      from: { path: "^functions/cron\\.ts$" },
      to: {
        path: "(^|node_modules/)(wink-nlp|wink-eng-lite-web-model|eld)(/|$)|^lib/engine/nlp\\.ts$",
        reachable: true,
      },
    },
    {
      name: "engine-entry-loads-judges-on-use",
      comment:
        "The engine Worker's entry imports the judging and the fits dynamically, on a batch or a scheduled run: its global scope (the 1 s startup limit, every cold start, the dead-letter consumer's too) loads no language model, learned model or vocabulary.",
      severity: "error",
      from: { path: "^functions/engine/index\\.ts$" },
      to: {
        path: "^services/engine/(consume|fit)\\.ts$|^lib/engine/(?!lazy\\.ts$)|(^|node_modules/)(wink-nlp|wink-eng-lite-web-model|eld)(/|$)",
        dependencyTypesNot: ["dynamic-import", "type-only"],
      },
    },
    {
      name: "api-without-mail-parser",
      comment:
        "The API Worker's bundle holds no MIME parser: its email handler passes each mail on to the Email Worker (functions/email.ts), which reads it.",
      severity: "error",
      from: { path: "^functions/api\\.ts$" },
      to: {
        path: "(^|node_modules/)postal-mime(/|$)|^lib/connectors/email\\.ts$|^services/connectors/email\\.ts$|^functions/email\\.ts$",
        reachable: true,
      },
    },
    {
      name: "api-without-mcp-server",
      comment:
        "The API Worker's bundle holds no MCP server: POST /v1/mcp is authenticated there and served by the MCP Worker (functions/mcp/worker.ts) over a service binding.",
      severity: "error",
      from: { path: "^functions/api\\.ts$" },
      to: {
        path: "(^|node_modules/)@modelcontextprotocol/sdk(/|$)|^functions/mcp/(server|prompts|worker)\\.ts$|^lib/bundle/mcp-validator\\.ts$",
        reachable: true,
      },
    },
    {
      name: "no-production-imports-of-tooling",
      severity: "error",
      from: { path: "^(functions|http|lib|services|db)/" },
      to: { path: "^(test|scripts|bench)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^\\.data/" },
  },
};
