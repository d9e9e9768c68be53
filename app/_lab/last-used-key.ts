import type { PaymentView } from "~/app/_components/order-payment";

/** The key of the latest attempt that reached the server, if any: the current one once used, or the last settled one. */
export function lastUsedKey(order: PaymentView["order"]): string | undefined {
  if (order.paymentKeyState !== "absent") return order.paymentKey;
  return order.attempts.filter((attempt) => attempt.status !== "OPEN").at(-1)?.key;
}
