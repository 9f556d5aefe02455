import { type DrainEnv, drain } from "../services/webhooks/delivery";

/**
 * The cron Worker (wrangler.cron.toml): each minute, one drain of due webhook deliveries plus the purge of
 * expired idempotency keys and upload tokens. It serves no HTTP.
 */
export default {
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      drain(env).then((result) => {
        if (result.claimed > 0) console.log(JSON.stringify({ webhook_drain: result }));
      }),
    );
  },
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler<DrainEnv>;
