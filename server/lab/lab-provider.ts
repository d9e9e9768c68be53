import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "../db/client";
import { logger } from "service-kit/logger";
import { HttpPaymentProvider, PROVIDER_RETRY_SETTINGS } from "../payment-provider/http-payment-provider";
import { ProviderUnavailableError } from "../payment-provider/payment-provider";
import type { ChargeAnswer, PaymentProvider, PaymentRequest } from "../payment-provider/payment-provider";
import type { ProviderFaults } from "service-kit/lab/provider-faults";
import { readSwitches, spend } from "./switches";

/** How long a stall between the hops lasts: long enough to kill the server by hand. */
export const STALL_MS = 4_000;

/** The payment provider as the lab bends it per order, on the shop's side of the call. */
export class LabProvider implements PaymentProvider {
  /** One try per call: the pitfall charge's provider (a transient failure reaches the run-once core), and the naive calls'. */
  readonly pitfallProvider: PaymentProvider;

  constructor(
    private readonly db: Db,
    private readonly inner: PaymentProvider,
    private readonly endpoint: { url: string; apiKey: string },
    /** Writes the server's account before a stall, so that the request killed in it is on record. */
    private readonly beforeStall: () => Promise<void> = async () => {},
  ) {
    this.pitfallProvider = new HttpPaymentProvider({
      ...endpoint,
      retry: { ...PROVIDER_RETRY_SETTINGS, maxTries: 1 },
    });
  }

  async charge(request: PaymentRequest, idempotencyKey: string): Promise<ChargeAnswer> {
    if (await spend(this.db, request.orderId, "failuresBeforeCommit")) {
      throw new Error("Lab fault: the connection to the provider broke before the charge was sent.");
    }
    const switches = await readSwitches(this.db, request.orderId);
    const answer = switches.naiveProviderCalls
      ? await this.#chargeWithAKeyPerTry(request)
      : await this.inner.charge(request, idempotencyKey);
    if (switches.shopDown)
      throw new Error("Lab fault: the shop is down: the provider charged, and its answer is lost.");
    if (await spend(this.db, request.orderId, "stallsBetweenHops")) {
      // The page names this process in its kill command (behind the demo's proxy it could be any instance).
      const where = { orderId: request.orderId };
      await this.beforeStall();
      await this.db.labSwitches.update({ where, data: { stallPid: process.pid } });
      logger.warn(
        { orderId: request.orderId, pid: process.pid, port: process.env.PORT },
        `lab: stalling ${STALL_MS / 1000} s between the hops; to crash this instance now: kill -9 ${process.pid}`,
      );
      await sleep(STALL_MS);
      await this.db.labSwitches.updateMany({
        where: { ...where, stallPid: process.pid },
        data: { stallPid: null },
      });
    }
    return answer;
  }

  /** The counter-example: the shop's retries, each under a key of its own, so a lost reply's retry charges again. */
  async #chargeWithAKeyPerTry(request: PaymentRequest): Promise<ChargeAnswer> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pitfallProvider.charge(request, `naive_${randomUUID()}`);
      } catch (error) {
        if (!(error instanceof ProviderUnavailableError) || attempt >= PROVIDER_RETRY_SETTINGS.maxTries)
          throw error;
        await sleep(PROVIDER_RETRY_SETTINGS.baseDelayMs);
      }
    }
  }

  // The lab bends no reads: they go to the provider as they are.
  readonly chargesOf: PaymentProvider["chargesOf"] = (...args) => this.inner.chargesOf(...args);
  readonly chargeOfIntent: PaymentProvider["chargeOfIntent"] = (...args) =>
    this.inner.chargeOfIntent(...args);
  readonly cardOf: PaymentProvider["cardOf"] = (...args) => this.inner.cardOf(...args);
  readonly webhookTriesOf: PaymentProvider["webhookTriesOf"] = (...args) =>
    this.inner.webhookTriesOf(...args);

  /** Reads the provider's faults for this order, or sets some of them: the provider keeps the others. */
  async providerFaults(orderId: string, changes?: Partial<ProviderFaults>): Promise<ProviderFaults> {
    const response = await fetch(`${this.endpoint.url}/v1/test/faults/${encodeURIComponent(orderId)}`, {
      method: changes ? "POST" : "GET",
      headers: { authorization: `Bearer ${this.endpoint.apiKey}`, "content-type": "application/json" },
      body: changes && JSON.stringify(changes),
      signal: AbortSignal.timeout(5_000),
    }).catch(() => null);
    // A provider that is down (no answer, or a 5xx) is a moment to wait, not a bug: 503 with Retry-After.
    if (!response || response.status >= 500) {
      throw new ProviderUnavailableError(response ? `HTTP ${response.status}` : "network");
    }
    if (!response.ok)
      throw new Error(`The provider's test API answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as ProviderFaults;
  }
}

export function labProviderOf(provider: PaymentProvider): LabProvider {
  if (!(provider instanceof LabProvider))
    throw new Error("The lab's procedures need services composed with the lab.");
  return provider;
}
