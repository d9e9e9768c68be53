/** The receipt worker's process, apart so it can die between a receipt and its ack. */
import { queueLabOn } from "../compose-lab";
import { labEnabled } from "../env";
import { runWorkerProcess } from "./worker-process";

const die = async (): Promise<never> => {
  process.kill(process.pid, "SIGKILL");
  return new Promise<never>(() => undefined); // the signal ends the process before this settles
};

await runWorkerProcess(labEnabled() ? (db) => queueLabOn(db, die) : undefined);
