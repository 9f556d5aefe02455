// autocannon setupRequest (runs in autocannon's worker thread, hence a plain CommonJS file): the cold public-room
// read asks for a different room on every request — `cold-room-2`, `cold-room-3`, … (the scenario's own path,
// `cold-room-1`, is the one its single warm-up request reads) — so no answer is ever in the edge cache. The rooms
// are seeded by bench/seed.ts (BENCH_COLD_ROOMS of them); past the last one the route answers 404, which the
// bench reports as unexpected statuses.
let next = 1;

module.exports = (request) => {
  next += 1;
  return { ...request, path: request.path.replace(/cold-room-\d+$/, `cold-room-${next}`) };
};
