// autocannon setupRequest (runs in autocannon's worker thread, hence a plain CommonJS file): a fresh
// Idempotency-Key on every request of the create scenario.
const { randomUUID } = require("node:crypto");

module.exports = (request) => ({
  ...request,
  headers: { ...request.headers, "idempotency-key": randomUUID() },
});
