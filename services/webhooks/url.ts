import { ApiError } from "../../lib/problem";
import { checkWebhookUrl, type UrlCheckOptions } from "../../lib/webhook-url";

/** The URL check as a request rule: a refused URL is a 400 naming the body field. */
export async function requireSafeWebhookUrl(url: string, options: UrlCheckOptions): Promise<void> {
  const verdict = await checkWebhookUrl(url, options);
  if (!verdict.ok) {
    throw new ApiError("invalid_request", `Body field \`url\` ${verdict.reason}.`, [
      { location: "body", field: "url", message: verdict.reason },
    ]);
  }
}
