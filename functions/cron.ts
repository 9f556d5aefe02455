import { WEBHOOK_DEAD_LETTERS } from "../lib/webhook-queue";
import { type InvalidationEnv, renewPublicGenerations } from "../services/edge-cache/invalidate";
import { type SweepEnv, sweepEngine } from "../services/engine/sweep";
import { recordDeadLetterBatch } from "../services/engine-failures/record";
import { purgeExpired, type RetentionEnv } from "../services/events/retention";
import { type ScheduledSendEnv, sendScheduledOffers } from "../services/offers/scheduled";
import {
  type ConsumerEnv,
  type DispatchEnv,
  dispatch,
  handleWebhookBatch,
} from "../services/webhooks/dispatch";

/**
 * The cron Worker (wrangler.cron.toml): each minute, the webhook drain (every endpoint with due deliveries gets a
 * ticket on the `gallery-webhooks` Queue), the retention purge (domain events past 30 days with their deliveries
 * and attempts, idempotency keys past 14 days, expired upload tokens), the invalidation pass of the public edge cache (the outbox's
 * events that change a public viewing room move their gallery's generation), and the send of scheduled offers
 * whose time has come, and the engine's sweep (subjects left stale too long are sent to the engine Queue again).
 * It also consumes the webhook Queue: each message is one endpoint's ticket, whose deliveries it sends
 * (services/webhooks/dispatch.ts), and its dead-letter queue, `gallery-webhooks-dlq`, whose tickets it records for
 * the operator's read (services/engine-failures/record.ts). It serves no HTTP. It runs none of the engine's judges
 * or fits (the engine Worker fits, on its own cron trigger: functions/engine/index.ts), so its bundle carries no
 * language model and a webhook delivery's cold start loads none.
 */

export default {
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      dispatch(env).then(({ tickets: _, ...result }) => {
        if (result.issued > 0) console.log(JSON.stringify({ webhook_drain: result }));
      }),
    );
    ctx.waitUntil(
      purgeExpired(env).then((result) => {
        if (result.events + result.idempotencyKeys + result.uploadTokens > 0)
          console.log(JSON.stringify({ retention_purge: result }));
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
  async queue(batch, env) {
    if (batch.queue === WEBHOOK_DEAD_LETTERS) {
      await recordDeadLetterBatch(batch, env);
      return;
    }
    const { continuations: _, ...result } = await handleWebhookBatch(batch, env);
    if (result.tickets > 0) console.log(JSON.stringify({ webhook_tickets: result }));
  },
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler<
  DispatchEnv & ConsumerEnv & RetentionEnv & InvalidationEnv & ScheduledSendEnv & SweepEnv
>;
