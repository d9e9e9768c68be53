import { settingToggle } from "./switches";

/** The receipt worker's switches: it reads them per order from the database it shares with the shop. */
export const QUEUE_TOGGLES = [
  {
    id: "consumer-dies-before-ack",
    label: "The receipt worker dies before its ack",
    help: "After the receipt is sent and before its message is acknowledged, the worker kills itself (SIGKILL). npm start starts it again, and the queue redelivers the message.",
    ...settingToggle("shop.consumerDeathsBeforeAck", 1),
  },
  {
    id: "relay-publishes-twice",
    label: "The relay publishes the event twice",
    help: "The payment's event goes into the queue twice, as from a relay that died between publishing and marking it sent.",
    ...settingToggle("shop.relayDuplicates", 1),
  },
  {
    id: "poison-message",
    label: "A poison message",
    help: "Every delivery of the payment's event fails. After its last allowed delivery (RECEIPT_MAX_DELIVERIES, 5) the queue dead-letters it: no receipt.",
    ...settingToggle("shop.poisonMessage", true),
  },
  {
    id: "naive-consumer",
    label: "Naive consumer (counter-example)",
    help: "The worker sends a receipt on every delivery, without its run-once key: a redelivery sends a second one.",
    ...settingToggle("shop.naiveConsumer", true),
  },
];
