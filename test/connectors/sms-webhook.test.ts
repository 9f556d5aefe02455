import { beforeAll, describe, expect, it } from "vitest";
import { EMPTY_TWIML } from "../../lib/connectors/twilio";
import { policyHeader, RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { type ConnectionBody, connect, listedThreads, member, THREADS } from "../inbox/helpers";
import mms from "./fixtures/twilio/mms.txt?raw";
import sms from "./fixtures/twilio/sms.txt?raw";
import { AUTH_TOKEN, inboxCounts, postTwilio, smsConnection, twilioSignature } from "./helpers";

/** POST /connectors/sms/{connection_id}: Twilio's incoming-message webhook, end to end. */

describe("the Twilio SMS webhook", () => {
  let g: TestGallery;
  let token: string;
  let connection: ConnectionBody;

  beforeAll(async () => {
    g = await createGallery();
    token = (await member(g)).token;
    connection = await smsConnection(token);
  });

  it("shows its webhook URL and the name of its secret only", () => {
    expect(connection.webhook_url).toBe(`https://api.test/v1/connectors/sms/${connection.id}`);
    expect(connection.secrets).toEqual(["auth_token"]);
    expect(JSON.stringify(connection)).not.toContain(AUTH_TOKEN);
  });

  it("stores a signed SMS and answers with an empty TwiML response", async () => {
    const before = await inboxCounts(g);
    const response = await postTwilio(connection.id, sms);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/xml/);
    expect(await response.text()).toBe(EMPTY_TWIML);
    expect(response.headers.get("ratelimit-policy")).toBe(policyHeader(RATE_LIMIT_POLICIES.connector));
    const thread = (await listedThreads(token, { channel: "sms" })).find(
      (t) => t.provider_thread_id === "+14155552671",
    )!;
    expect(thread).toMatchObject({
      connection_id: connection.id,
      unread_count: 1,
      last_from: "+14155552671",
      last_snippet: "Hello, is the Hockney print in the window still available? What's the price?",
    });
    const page = await call("GET", `${THREADS}/${thread.id}/messages`, { key: token });
    const [message] = ((await page.json()) as { data: Record<string, unknown>[] }).data;
    expect(message).toMatchObject({
      provider_message_id: "SM9a4e2c7d1b8f3a6e0c5d9b2f7a4e1c83",
      from_address: "+14155552671",
      to_addresses: ["+442079460958"],
      attachments: [],
    });
    expect((await inboxCounts(g)).messages - before.messages).toBe(1);
  });

  it("stores nothing new when Twilio retries the same message", async () => {
    const before = await inboxCounts(g);
    const response = await postTwilio(connection.id, sms);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(EMPTY_TWIML);
    expect(await inboxCounts(g)).toEqual(before);
  });

  it("records an MMS's media by URL and type, in the same conversation", async () => {
    expect((await postTwilio(connection.id, mms)).status).toBe(200);
    const threads = (await listedThreads(token, { channel: "sms" })).filter(
      (t) => t.provider_thread_id === "+14155552671",
    );
    expect(threads).toHaveLength(1);
    const page = await call("GET", `${THREADS}/${threads[0]!.id}/messages`, { key: token });
    const newest = ((await page.json()) as { data: Record<string, unknown>[] }).data[0]!;
    expect(newest.provider_message_id).toBe("MM3c1f7e9a5d2b8c4f6a0e3d7b1c9f5a2e");
    expect(newest.attachments).toEqual([
      expect.objectContaining({
        content_type: "image/jpeg",
        provider_url: expect.stringMatching(/^https:\/\/api\.twilio\.com\/.*\/Media\/ME5e1a9c3f/),
        download_url: null,
      }),
      expect.objectContaining({
        content_type: "image/png",
        provider_url: expect.stringContaining("ME8b4d2f6a"),
      }),
    ]);
  });

  it("refuses, storing nothing, a request unsigned, signed for another URL or token, or altered", async () => {
    const before = await inboxCounts(g);
    const other = sms.replace("SM9a4e2c7d", "SM0a4e2c7d");
    await expectProblem(await postTwilio(connection.id, other, null), 401, "unauthenticated");
    const elsewhere = await twilioSignature(`https://evil.example/v1/connectors/sms/${connection.id}`, other);
    await expectProblem(await postTwilio(connection.id, other, elsewhere), 401, "unauthenticated");
    const url = `https://api.test/v1/connectors/sms/${connection.id}`;
    const wrongToken = await twilioSignature(url, other, "another-auth-token-0000");
    await expectProblem(await postTwilio(connection.id, other, wrongToken), 401, "unauthenticated");
    const signed = await twilioSignature(url, other);
    const altered = other.replace("Hockney", "Hockneys");
    await expectProblem(await postTwilio(connection.id, altered, signed), 401, "unauthenticated");
    expect(await inboxCounts(g)).toEqual(before);
  });

  it("answers a signed request without Twilio's fields with 400, storing nothing", async () => {
    const before = await inboxCounts(g);
    await expectProblem(
      await postTwilio(connection.id, "Body=hello&From=%2B14155552671"),
      400,
      "invalid_request",
    );
    expect(await inboxCounts(g)).toEqual(before);
  });

  it("is 404 for an unknown connection and for a WhatsApp one", async () => {
    await expectProblem(await postTwilio(crypto.randomUUID(), sms), 404, "not_found");
    const whatsapp = await connect(token, {
      channel: "whatsapp",
      address: "+442079460003",
      provider: "meta",
    });
    await expectProblem(await postTwilio(whatsapp.id, sms), 404, "not_found");
  });
});
