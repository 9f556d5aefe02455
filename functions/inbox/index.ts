import { createRouter, type RouterOptions } from "../../http/app";
import { registerInboxConnectionsCreate } from "./create-connection";
import { registerInboxConnectionsDelete } from "./delete-connection";
import { registerInboxAttachmentDownload } from "./download-attachment";
import { registerInboxThreadsGet } from "./get-thread";
import { registerInboxThreadTriageGet } from "./get-thread-triage";
import { registerInboxMessagesIngest } from "./ingest-message";
import { registerInboxConnectionsList } from "./list-connections";
import { registerInboxThreadMessagesList } from "./list-thread-messages";
import { registerInboxThreadsList } from "./list-threads";
import { registerInboxThreadsMarkRead } from "./mark-thread-read";
import { registerInboxConnectionsUpdate } from "./update-connection";
import { registerInboxThreadsUpdate } from "./update-thread";

/**
 * The member-private inbox, under /gallery/inbox: the signed-in member's connections, threads and messages, and
 * the ingest through which connectors deliver messages.
 */
export function inboxRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerInboxConnectionsList(app);
  registerInboxConnectionsCreate(app);
  registerInboxConnectionsUpdate(app);
  registerInboxConnectionsDelete(app);
  registerInboxMessagesIngest(app);
  registerInboxThreadsList(app);
  registerInboxThreadsGet(app);
  registerInboxThreadsUpdate(app);
  registerInboxThreadsMarkRead(app);
  registerInboxAttachmentDownload(app);
  registerInboxThreadMessagesList(app);
  registerInboxThreadTriageGet(app);
  return app;
}
