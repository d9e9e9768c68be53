import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { PaymentMethodError, createPaymentMethod } from "./payment-method";

const CARD = { number: "4242424242424242", expMonth: 12, expYear: 2034, cvc: "123" };
const PUBLISHABLE_KEY = "pk_test_idempotent_checkout";

interface Received {
  method?: string;
  url?: string;
  authorization?: string;
  contentType?: string;
  body: string;
}

let close: (() => void) | undefined;
afterEach(() => {
  close?.();
  close = undefined;
});

/** A provider on a free port that answers each request with `answer` and records what it received. */
async function provider(
  answer: (response: ServerResponse) => void,
): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push({
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization,
        contentType: request.headers["content-type"],
        body,
      });
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received };
}

const json = (status: number, body: unknown) => (response: ServerResponse) =>
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

it("posts the card to the provider as Stripe.js does, with the publishable key, and returns the payment method's id", async () => {
  const { url, received } = await provider(json(200, { id: "pm_123", object: "payment_method" }));
  await expect(createPaymentMethod({ url, publishableKey: PUBLISHABLE_KEY }, CARD)).resolves.toBe("pm_123");
  expect(received).toEqual([
    {
      method: "POST",
      url: "/v1/payment_methods",
      authorization: `Bearer ${PUBLISHABLE_KEY}`,
      contentType: "application/x-www-form-urlencoded;charset=UTF-8",
      body: "type=card&card%5Bnumber%5D=4242424242424242&card%5Bexp_month%5D=12&card%5Bexp_year%5D=2034&card%5Bcvc%5D=123",
    },
  ]);
});

it("says what the provider said of a card it refuses", async () => {
  const { url } = await provider(
    json(402, {
      error: { type: "card_error", code: "incorrect_number", message: "Your card number is incorrect." },
    }),
  );
  await expect(createPaymentMethod({ url, publishableKey: PUBLISHABLE_KEY }, CARD)).rejects.toEqual(
    new PaymentMethodError("refused", "Your card number is incorrect."),
  );
});

it("tells a refused request from a refused card", async () => {
  const { url } = await provider(
    json(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided." } }),
  );
  await expect(createPaymentMethod({ url, publishableKey: PUBLISHABLE_KEY }, CARD)).rejects.toThrow(
    "The payment provider refused the card details: Invalid API Key provided.",
  );
});

it("gives up on a provider that does not answer in time", async () => {
  const { url } = await provider(() => undefined);
  const failure = createPaymentMethod({ url, publishableKey: PUBLISHABLE_KEY }, CARD, { timeoutMs: 200 });
  await expect(failure).rejects.toMatchObject({ reason: "no_answer" });
  await expect(failure).rejects.toThrow("The payment provider did not answer");
});

it("says the provider did not answer when nothing listens at its address", async () => {
  const { url } = await provider(json(200, {}));
  close?.();
  close = undefined;
  await expect(createPaymentMethod({ url, publishableKey: PUBLISHABLE_KEY }, CARD)).rejects.toMatchObject({
    reason: "no_answer",
  });
});
