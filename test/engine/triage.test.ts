import { describe, expect, it } from "vitest";
import { judgeTriage, TRIAGE_MODEL } from "../../lib/engine/triage-judge";
import { type Channel, INTENTS, type TriageMessage, URGENCIES } from "../../lib/engine/types";
import { scoreTriage, TARGETS } from "../../scripts/engine-score/triage";

const at = (iso: string) => `2026-12-0${iso}Z`;

function inbound(body: string, sentAt = at("2T11:00:00"), subject: string | null = null): TriageMessage {
  return { direction: "inbound", body, subject, sentAt, fromName: null, fromAddress: null };
}

function outbound(body: string, sentAt = at("1T10:00:00")): TriageMessage {
  return { direction: "outbound", body, subject: null, sentAt, fromName: null, fromAddress: null };
}

function judge(
  messages: TriageMessage[] | string,
  channel: Channel = "email",
  timeZone: string | null = null,
) {
  const thread = typeof messages === "string" ? [inbound(messages)] : messages;
  return judgeTriage({ channel, messages: thread, timeZone });
}

describe("judgeTriage: the judged text", () => {
  it("judges a reply on its new text, not on the quoted request below it", () => {
    const body = [
      "Lovely, thank you for letting me know.",
      "",
      "On Tue, 1 Dec 2026 at 09:12, Gallery <info@gallery.example> wrote:",
      "> Could you tell me the price of the large canvas? Is it still available?",
    ].join("\n");
    const j = judge([outbound("It is 9,000."), inbound(body)]);
    expect(j.intent).toBe("other");
    expect(j.expectsReply).toBeLessThan(0.5);
    for (const e of j.evidence) expect(e.start).toBeLessThan(body.indexOf("On Tue"));
  });

  it("sets a signature aside: a job title that mentions shipping does not make it logistics", () => {
    const body =
      "Hi, how much is the small linocut of the heron?\n\nBest regards,\nTara Quinn\nHead of Shipping & Crating, Q Logistics";
    const j = judge(body);
    expect(j.intent).toBe("price_request");
    expect(j.signals.some((s) => s.includes("set aside"))).toBe(true);
  });

  it("gives phrase evidence whose offsets index the message body", () => {
    const body = "Good morning! We'd like to buy the heron linocut – can you hold it until Friday?";
    const j = judge(body);
    expect(j.evidence.length).toBeGreaterThan(0);
    for (const e of j.evidence) {
      expect(e.source).toBe("message");
      expect(body.slice(e.start, e.end)).toBe(e.phrase);
    }
    expect(j.evidence.some((e) => e.decisive && /buy/i.test(e.phrase))).toBe(true);
  });
});

describe("judgeTriage: negation within its clause", () => {
  it("'not looking to buy' is not purchase intent; the price question decides", () => {
    const body = "I'm not looking to buy anything this year, but what do the small etchings cost?";
    const j = judge(body);
    expect(j.intent).toBe("price_request");
    const negated = j.evidence.find((e) => /buy/i.test(e.phrase));
    expect(negated?.decisive).toBe(false);
  });

  it("a negation in one clause does not cancel a commitment in the next", () => {
    const j = judge("No need for the frame, but we'll take the heron linocut itself.");
    expect(j.intent).toBe("purchase_inquiry");
  });

  it("a negator in an earlier clause does not reach a clause that opens with its own subject", () => {
    const j = judge("If the report isn't here by Friday I'll buy the other cast at auction.");
    expect(j.evidence.some((e) => /I'll buy/i.test(e.phrase) && e.effect.startsWith("negated"))).toBe(false);
    const k = judge("I'll not buy the other cast.");
    expect(k.evidence.some((e) => /buy/i.test(e.phrase) && e.effect.startsWith("negated"))).toBe(true);
  });

  it("an elliptical 'if not' negates nothing after it", () => {
    const j = judge("Could you do 10% off the heron? If not we'll still go ahead at the full price.");
    expect(j.intent).toBe("purchase_inquiry");
  });

  it("a declined invitation is still an answer to an invitation", () => {
    const j = judge("Thank you for the invite – sadly we can't make it to the opening this time.");
    expect(j.intent).toBe("event_rsvp");
    expect(j.expectsReply).toBeLessThan(0.5);
  });
});

describe("judgeTriage: precedence between several asks", () => {
  it("a buyer acting for someone else moves to acquire, and the payment terms are a step of it", () => {
    const j = judge(
      "On behalf of my client I'd like to put forward €12,000 for the heron, payment within 14 days.",
    );
    expect(j.intent).toBe("purchase_inquiry");
    const k = judge("Balance of £6,400 for the heron print sent this morning, ref HERON.");
    expect(k.intent).toBe("invoice_payment");
  });

  it("'hold' asks to reserve a work, not when it is what someone holds or a telephone queue", () => {
    expect(judge("Could you hold the heron for me until Friday?").intent).toBe("purchase_inquiry");
    expect(judge("Could I consult any letters you hold about her early shows?").intent).toBe("other");
  });

  it("lost property is other, whatever event it was lost at", () => {
    expect(judge("Hi, did anyone find a black umbrella after the opening on Thursday?").intent).toBe("other");
  });

  it("an owner asking the gallery to sell is consignment, in several languages", () => {
    expect(
      judge("My father bought a drawing from you in 1988; could you sell it on our behalf?").intent,
    ).toBe("consignment");
    expect(judge("Wij overwegen ons schilderij te verkopen. Neemt u het in consignatie?").intent).toBe(
      "consignment",
    );
  });

  it("paid features, chosen-for-a-fee fairs, account threats and new-number scams read as spam", () => {
    expect(
      judge("Dear Gallery Owner, feature your gallery in our print issue. Editorial packages from £1,200.")
        .intent,
    ).toBe("spam");
    expect(judge("Hi Mum, this is my new number, can you pay a bill for me?", "sms").intent).toBe("spam");
    expect(
      judge("Your page will be permanently disabled unless you appeal at meta-help-desk.com").intent,
    ).toBe("spam");
  });

  it("someone else wanting a work moves towards buying it; wanting its invoice does not", () => {
    expect(judge("Jean-Luc wants the two small herons for his flat, same terms as last time?").intent).toBe(
      "purchase_inquiry",
    );
    expect(judge("Our accountant wants the invoice for the heron reissued to the company.").intent).toBe(
      "invoice_payment",
    );
  });

  it("a buying verb that takes custom elsewhere is a threat, not a purchase", () => {
    const j = judge("Three weeks to get a price list is not ok. I'll take my clients elsewhere.");
    expect(j.intent).toBe("price_request");
    expect(j.escalating).toBeGreaterThan(0.5);
  });

  it("'à vendre' asks whether a work is for sale; 'before opening' is a time, not an event", () => {
    expect(judge("Bonjour, la céramique de la vitrine est-elle encore à vendre ?").intent).toBe(
      "availability",
    );
    expect(
      judge("Could I photograph the installation on Tuesday before opening? I shoot for Wallpaper.").intent,
    ).toBe("press");
  });

  it("matches words that begin or end with letters beyond ASCII", () => {
    const j = judge(
      "I'm compiling the catalogue raisonné and would be grateful for records of works sold in the 1990s.",
    );
    expect(j.intent).toBe("press");
    expect(judge("Ist meine Überweisung angekommen?").intent).toBe("invoice_payment");
  });

  it("several weak marks of bulk mail add up to spam", () => {
    const j = judge(
      "Dear customer, your payment failed. Act within 12 hours at parcel-help-desk.net to avoid return.",
    );
    expect(j.intent).toBe("spam");
  });

  it("settling on a named work is buying, and its payment question is a step of it", () => {
    expect(judge("OK, let's go with Shore III at £3,400. Card or transfer?").intent).toBe("purchase_inquiry");
    expect(judge("Decidimos ficar com a pintura pequena! Como fazemos o pagamento?").intent).toBe(
      "purchase_inquiry",
    );
    expect(judge("Wij willen graag de kleine heron kopen. Kunt u de factuur sturen?").intent).toBe(
      "purchase_inquiry",
    );
  });

  it("holding an event is no hold on a work; a shipping consignment number is no seller", () => {
    expect(judge("Could we hold a small book launch in the gallery one evening?").intent).toBe("other");
    const j = judgeTriage({
      channel: "email",
      timeZone: null,
      messages: [
        inbound(
          "Your shipment is delayed by 48 hours. New ETA Thursday.",
          at("2T11:00:00"),
          "Delay – consignment 55102",
        ),
      ],
    });
    expect(j.intent).toBe("logistics");
  });

  it("a hold or an offer in the message puts its invoice and collection after it", () => {
    expect(
      judge(
        "Could you hold the heron until Friday? Then please send the invoice and we'll arrange collection.",
      ).intent,
    ).toBe("purchase_inquiry");
    expect(
      judge("Good news – the committee approved the heron. Please send the invoice to our finance team.")
        .intent,
    ).toBe("purchase_inquiry");
  });

  it("mail that reached the wrong person is other, whatever it mentions", () => {
    expect(
      judge("I received your invoice but I've never bought anything from you, wrong address I think.").intent,
    ).toBe("other");
  });

  it("cold service pitches and payment-mule job offers read as spam", () => {
    expect(
      judge("We've helped 40+ galleries rank on Google. Can I send over a short video audit?").intent,
    ).toBe("spam");
    expect(judge("Dear Candidate, process payments from clients, flexible hours, £450 weekly.").intent).toBe(
      "spam",
    );
  });

  it("spam comes first, whatever it imitates", () => {
    const j = judge([
      inbound(
        "Dear customer, your invoice INV-5521 is overdue. To avoid suspension pay now at invoice-settle-portal.com",
        at("3T04:10:00"),
        "Invoice overdue",
      ),
    ]);
    expect(j.intent).toBe("spam");
    expect(j.urgency).toBe("later");
    expect(j.expectsReply).toBeLessThan(0.1);
    expect(j.escalating).toBeLessThan(0.1);
  });

  it("an autoreply is other even when its subject quotes a price request", () => {
    const j = judge([
      inbound(
        "I'm out of the office until Monday and will answer on my return.",
        at("2T09:00:00"),
        "Automatic reply: Price?",
      ),
    ]);
    expect(j.intent).toBe("other");
    expect(j.expectsReply).toBeLessThan(0.1);
  });

  it("purchase_inquiry beats price_request and availability in the same message", () => {
    const j = judge(
      "If the heron linocut is still free we'd like to buy it – how much is it with the frame?",
    );
    expect(j.intent).toBe("purchase_inquiry");
    expect(j.signals.some((s) => s.includes("purchase_inquiry comes first"))).toBe(true);
  });

  it("price_request beats availability", () => {
    const j = judge("Is the heron linocut still available, and how much is it?");
    expect(j.intent).toBe("price_request");
  });

  it("a seller asking what a work would fetch is consignment, not a price request", () => {
    const j = judge("What price could you get for my Frink print if I wanted to sell it through you?");
    expect(j.intent).toBe("consignment");
  });

  it("a sale being agreed outranks the payment question that comes with it", () => {
    const j = judge("Great, we'll take it. Do you prefer a bank transfer or card?");
    expect(j.intent).toBe("purchase_inquiry");
  });

  it("judges other languages", () => {
    expect(judge("Bonjour, quel est le prix de la petite gravure ?").intent).toBe("price_request");
    expect(judge("Ist die kleine Radierung noch verfügbar?").intent).toBe("availability");
    expect(judge("Vorrei vendere una litografia tramite la vostra galleria.").intent).toBe("consignment");
  });
});

describe("judgeTriage: thread, channel and urgency", () => {
  const first = inbound(
    "Hi, could you send me the condition report for the heron linocut?",
    at("1T09:00:00"),
  );
  const second = inbound("Hello, resending my question below.", at("2T09:00:00"));

  it("a third unanswered inbound message escalates and is at least today", () => {
    const third = inbound(
      "Could someone please get back to me about the condition report?",
      at("3T09:00:00"),
    );
    const j = judge([first, second, third]);
    expect(j.escalating).toBeGreaterThanOrEqual(0.9);
    expect(["now", "today"]).toContain(j.urgency);
    expect(j.signals.some((s) => s.startsWith("third unanswered"))).toBe(true);
  });

  it("the same messages with a gallery reply in between do not escalate", () => {
    const third = inbound("Could you also send the condition report for the heron print?", at("3T09:00:00"));
    const j = judge([first, outbound("Of course, attached.", at("1T12:00:00")), third]);
    expect(j.escalating).toBeLessThan(0.5);
  });

  it("frustration and a threat to walk away escalate without any history", () => {
    const j = judge("Honestly this is unacceptable, nobody answers the phone. I'll buy elsewhere.");
    expect(j.escalating).toBeGreaterThanOrEqual(0.8);
  });

  it("someone present (in the gallery, by the work, a crew that has arrived) is now; someone on the way is not", () => {
    expect(judge("hi I'm in the gallery now, can someone show me the heron?", "sms").urgency).toBe("now");
    expect(judge("Il corriere è arrivato, aspetta la firma. Lo apro?", "whatsapp").urgency).toBe("now");
    expect(judge("Driver here, stuck in traffic, will be 40 min late for the pickup", "sms").urgency).toBe(
      "today",
    );
  });

  it("someone present and waiting is now even when the message also says today", () => {
    expect(
      judge("at ur booth now w/ my wife, she loves the heron, can we do it today?", "whatsapp").urgency,
    ).toBe("now");
  });

  it("a place told in the past is no one waiting there now", () => {
    const j = judge(
      "I was made to feel unwelcome by the man at the front desk today. Not how I expect to be treated.",
    );
    expect(j.urgency).not.toBe("now");
  });

  it("a same-day word in the request outweighs a weekday told around it", () => {
    const j = judge("The board releases funds on Thursday. Could you send the proforma invoice today?");
    expect(j.urgency).toBe("today");
  });

  it("someone waiting downstairs is now", () => {
    const j = judge(
      "Hi, driver from the shipper, I'm downstairs with two crates, can someone open up?",
      "sms",
    );
    expect(j.intent).toBe("logistics");
    expect(j.urgency).toBe("now");
  });

  it("a buyer's ask defaults to today; a date months away is later", () => {
    expect(judge("Do you still have the heron linocut?").urgency).toBe("today");
    expect(judge("We'd like to talk about storing four works while we renovate next year.").urgency).toBe(
      "later",
    );
  });

  it("a time the payment was made is a report, not a same-day deadline", () => {
    const j = judge("We wired the full amount for invoice INV-2026-0500 today. Remittance attached.");
    expect(j.intent).toBe("invoice_payment");
    expect(j.urgency).toBe("this_week");
    expect(j.expectsReply).toBeLessThan(0.5);
  });

  it("records the channel and local time as a signal, out of hours in the gallery's zone", () => {
    const j = judge([inbound("how much is the heron?", "2026-12-02T22:30:00Z")], "whatsapp", "Europe/Berlin");
    expect(j.signals).toContain("sent on whatsapp at 23:30 Wed (out of hours)");
  });
});

describe("judgeTriage: the shape of a judgment", () => {
  it("gives every intent and urgency a probability, summing to 1, with the chosen value on top", () => {
    for (const body of ["still avail?", "Thank you!", "Please send the invoice for the heron.", ""]) {
      const j = judge(body, "sms");
      expect(Object.keys(j.intentDistribution).sort()).toEqual([...INTENTS].sort());
      expect(Object.keys(j.urgencyDistribution).sort()).toEqual([...URGENCIES].sort());
      const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
      expect(sum(j.intentDistribution)).toBeCloseTo(1, 3);
      expect(sum(j.urgencyDistribution)).toBeCloseTo(1, 3);
      expect(j.intentProbability).toBe(Math.max(...Object.values(j.intentDistribution)));
      expect(j.urgencyProbability).toBe(Math.max(...Object.values(j.urgencyDistribution)));
      expect(j.expectsReply).toBeGreaterThanOrEqual(0);
      expect(j.expectsReply).toBeLessThanOrEqual(1);
      expect(j.model).toBe(TRIAGE_MODEL);
    }
  });

  it("judges the last inbound message when the thread ends with the gallery's reply", () => {
    const j = judge([
      inbound("Is the heron linocut still available?"),
      outbound("Yes it is!", at("2T12:00:00")),
    ]);
    expect(j.intent).toBe("availability");
  });
});

describe("the labelled set", () => {
  it("meets the four targets", () => {
    const sections = scoreTriage();
    const metric = (title: string, name: string) =>
      sections.find((s) => s.title === title)?.metrics.find((m) => m.name === name)?.value ?? 0;
    expect(sections.map((s) => s.title)).toEqual(["Intent", "Urgency", "Expects reply", "Escalating"]);
    expect(sections.every((s) => s.cases >= 320)).toBe(true);
    expect(metric("Intent", "accuracy")).toBeGreaterThanOrEqual(TARGETS.intent);
    expect(metric("Urgency", "accuracy")).toBeGreaterThanOrEqual(TARGETS.urgency);
    expect(metric("Expects reply", "accuracy")).toBeGreaterThanOrEqual(TARGETS.reply);
    expect(metric("Escalating", "F1")).toBeGreaterThanOrEqual(TARGETS.escalationF1);
    for (const s of sections) expect(s.calibration).toHaveLength(s.cases);
  });
});
