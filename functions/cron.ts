import { type InvalidationEnv, renewPublicGenerations } from "../services/edge-cache/invalidate";
import { type DrainEnv, drain } from "../services/webhooks/delivery";

/**
 * The cron Worker (wrangler.cron.toml): each minute, one drain of due webhook deliveries plus the purge of
 * expired idempotency keys and upload tokens, and the invalidation pass of the public edge cache (the outbox's
 * events that change a public viewing room move their gallery's generation). It serves no HTTP.
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
  },
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler<DrainEnv & InvalidationEnv>;
