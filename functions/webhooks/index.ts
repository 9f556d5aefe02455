import { createRouter, type RouterOptions } from "../../http/app";
import { registerWebhooksCreate } from "./create";
import { registerWebhooksDelete } from "./delete";
import { registerWebhooksDeliveries } from "./deliveries";
import { registerWebhooksGet } from "./get";
import { registerWebhooksList } from "./list";
import { registerWebhooksReplay } from "./replay";
import { registerWebhooksRotateSecret } from "./rotate-secret";
import { registerWebhooksTest } from "./test";
import { registerWebhooksUpdate } from "./update";

export function webhooksRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerWebhooksList(app);
  registerWebhooksCreate(app);
  registerWebhooksGet(app);
  registerWebhooksUpdate(app);
  registerWebhooksDelete(app);
  registerWebhooksRotateSecret(app);
  registerWebhooksTest(app);
  registerWebhooksDeliveries(app);
  registerWebhooksReplay(app);
  return app;
}
