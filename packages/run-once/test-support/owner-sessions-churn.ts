/**
 * A plain Node process (no test runner to catch its errors) that claims, holds
 * and releases owner sessions in a loop, as the provider and the receipt worker
 * do, until SIGTERM; it prints how many claims it held, once a second.
 * Usage: node --import tsx owner-sessions-churn.ts <database url> <application_name>
 */
import { setTimeout as sleep } from "node:timers/promises";
import { OwnerSessions } from "../owner-sessions";

const [url, name] = process.argv.slice(2) as [string, string];
const WORKERS = 8;

let held = 0;
let failed = 0;
let stopping = false;
const sessions = new OwnerSessions(url, { warn: () => undefined }, { maxWaitMs: 2_000, name });

async function churn(worker: number) {
  const lock = String(worker + 1);
  while (!stopping) {
    try {
      const { claim } = await sessions.attempt(lock, async (client) => {
        const { rows } = await client.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_lock($1::bigint) AS locked",
          [lock],
        );
        const locked = rows[0]!.locked;
        return { locked, claim: locked ? { id: lock, token: `${worker}-${held}` } : null };
      });
      if (claim) {
        held++;
        await sleep(2);
        await sessions.release(claim);
      }
    } catch {
      // The session was terminated under the claim: the next turn takes a new one.
      failed++;
    }
  }
}

const report = setInterval(() => console.log(JSON.stringify({ held, failed })), 1_000);
const workers = Array.from({ length: WORKERS }, (_, worker) => churn(worker));
process.once("SIGTERM", () => {
  stopping = true;
  void Promise.all(workers)
    .then(() => sessions.close())
    .then(() => {
      clearInterval(report);
      console.log(JSON.stringify({ held, failed, stopped: true }));
    });
});
