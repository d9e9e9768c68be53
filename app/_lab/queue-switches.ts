import type { Toggle } from "./switches";

/** The receipt worker's switches: it reads them per order from the database it shares with the shop. */
export const QUEUE_TOGGLES: Array<Toggle & { help: string }> = [
  {
    id: "consumer-dies-before-ack",
    label: "The receipt worker dies before its ack",
    help: "After the receipt is sent and before its message is acknowledged, the worker kills itself (SIGKILL). npm start starts it again, and the queue redelivers the message.",
    isOn: (s) => s.shop.consumerDeathsBeforeAck > 0,
    turn: (on) => ({ shop: { consumerDeathsBeforeAck: on ? 1 : 0 } }),
  },
  {
    id: "relay-publishes-twice",
    label: "The relay publishes the event twice",
    help: "The payment's event goes into the queue twice, as from a relay that died between publishing and marking it sent.",
    isOn: (s) => s.shop.relayDuplicates > 0,
    turn: (on) => ({ shop: { relayDuplicates: on ? 1 : 0 } }),
  },
  {
    id: "poison-message",
    label: "A poison message",
    help: "Every delivery of the payment's event fails. After its last allowed delivery (RECEIPT_MAX_DELIVERIES, 5) the queue dead-letters it: no receipt.",
    isOn: (s) => s.shop.poisonMessage,
    turn: (on) => ({ shop: { poisonMessage: on } }),
  },
  {
    id: "naive-consumer",
    label: "Naive consumer (counter-example)",
    help: "The worker sends a receipt on every delivery, without its run-once key: a redelivery sends a second one.",
    isOn: (s) => s.shop.naiveConsumer,
    turn: (on) => ({ shop: { naiveConsumer: on } }),
  },
];
