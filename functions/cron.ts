import { type InvalidationEnv, renewPublicGenerations } from "../services/edge-cache/invalidate";
import { type SweepEnv, sweepEngine } from "../services/engine/sweep";
import { type ScheduledSendEnv, sendScheduledOffers } from "../services/offers/scheduled";
import { type DrainEnv, drain } from "../services/webhooks/delivery";

/**
 * The cron Worker (wrangler.cron.toml): each minute, one drain of due webhook deliveries plus the purge of
 * expired idempotency keys and upload tokens, the invalidation pass of the public edge cache (the outbox's
 * events that change a public viewing room move their gallery's generation), and the send of scheduled offers
 * whose time has come, and the engine's sweep (subjects left stale too long are sent to the engine Queue again).
 * It serves no HTTP.
 */
export default {
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      drain(env).then((result) => {
        if (result.claimed > 0) console.log(JSON.stringify({ webhook_drain: result }));
      }),
    );
    ctx.waitUntil(
      renewPublicGenerations(env).then((result) => {
        if (result.renewed > 0) console.log(JSON.stringify({ public_generations: result }));
      }),
    );
    ctx.waitUntil(
      sendScheduledOffers(env).then((result) => {
        if (result.due > 0) console.log(JSON.stringify({ scheduled_offers: result }));
      }),
    );
    ctx.waitUntil(
      sweepEngine(env).then((result) => {
        if (result.swept > 0) console.log(JSON.stringify({ engine_sweep: result }));
      }),
    );
  },
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler<DrainEnv & InvalidationEnv & ScheduledSendEnv & SweepEnv>;
