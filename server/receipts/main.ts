/**
 * The receipt worker's process, beside the shop (`npm start` starts it), so
 * that it can die between a receipt and its acknowledgement without taking
 * the shop down. Where the lab is on, its switches are composed in, and can
 * make the worker kill itself (SIGKILL) between a receipt and its ack; `npm
 * start` starts it again, and the queue redelivers what it held.
 */
import { queueLabOn } from "../compose-lab";
import { labEnabled } from "../env";
import { runWorkerProcess } from "./worker-process";

const die = async (): Promise<never> => {
  process.kill(process.pid, "SIGKILL");
  return new Promise<never>(() => undefined); // the signal ends the process before this settles
};

await runWorkerProcess(labEnabled() ? (db) => queueLabOn(db, die) : undefined);
