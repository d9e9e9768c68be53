import type { Toggle } from "./switches";

type QueueSwitch = "consumerDeathsBeforeAck" | "relayDuplicates" | "poisonMessage" | "naiveConsumer";

/** A checkbox for one of the receipt worker's switches: `armed` is its value when on (a count of 1, or true). */
function queueToggle(
  name: QueueSwitch,
  armed: 1 | true,
  text: { id: string; label: string; help: string },
): Toggle & { help: string } {
  return {
    ...text,
    isOn: (switches) => Boolean(switches.shop[name]),
    turn: (on) => ({ shop: { [name]: on ? armed : armed === 1 ? 0 : false } }),
  };
}

/** The receipt worker's switches: it reads them per order from the database it shares with the shop. */
export const QUEUE_TOGGLES = [
  queueToggle("consumerDeathsBeforeAck", 1, {
    id: "consumer-dies-before-ack",
    label: "The receipt worker dies before its ack",
    help: "After the receipt is sent and before its message is acknowledged, the worker kills itself (SIGKILL). npm start starts it again, and the queue redelivers the message.",
  }),
  queueToggle("relayDuplicates", 1, {
    id: "relay-publishes-twice",
    label: "The relay publishes the event twice",
    help: "The payment's event goes into the queue twice, as from a relay that died between publishing and marking it sent.",
  }),
  queueToggle("poisonMessage", true, {
    id: "poison-message",
    label: "A poison message",
    help: "Every delivery of the payment's event fails. After its last allowed delivery (RECEIPT_MAX_DELIVERIES, 5) the queue dead-letters it: no receipt.",
  }),
  queueToggle("naiveConsumer", true, {
    id: "naive-consumer",
    label: "Naive consumer (counter-example)",
    help: "The worker sends a receipt on every delivery, without its run-once key: a redelivery sends a second one.",
  }),
];
