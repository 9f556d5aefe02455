export {
  createGalleryClient,
  type GalleryClient,
  type GalleryClientOptions,
  type ListItem,
  type ListPath,
  type Success,
} from "./client.js";
export {
  type ErrorCode,
  type FieldIssue,
  GalleryApiError,
  GalleryError,
  GalleryHttpError,
  type Problem,
  type Retry,
} from "./errors.js";
export type { components, operations, paths, webhooks } from "./schema.js";
export {
  verifyWebhook,
  Webhook,
  type WebhookEvent,
  type WebhookEventType,
  WebhookVerificationError,
} from "./webhooks.js";
