/**
 * A receipt worker process for the crash tests: the production worker, with
 * counter-examples composed in from its arguments, never from its settings.
 * `--naive` sends on every delivery without the run-once key; `--ack-delay-ms`
 * holds each acknowledgement after its receipt: the window the kills aim at.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { runWorkerProcess } from "../server/receipts/worker-process";

const { values } = parseArgs({
  options: { naive: { type: "boolean", default: false }, "ack-delay-ms": { type: "string", default: "0" } },
});
const ackDelayMs = Number(values["ack-delay-ms"]);

await runWorkerProcess(() => ({
  consumer: {
    naive: async () => values.naive,
    beforeAck: () => sleep(ackDelayMs),
  },
}));
