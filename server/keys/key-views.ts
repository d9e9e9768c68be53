import type { Db } from "../db/client";

/** A key as the pages show it: its state, how often it was replayed, and its deadlines. */
export type KeyView = Awaited<ReturnType<typeof viewKeys>>[number];

/** A caller's keys on one operation; expired ones count as absent unless `includeExpired`. */
export async function viewKeys(
  db: Db,
  scope: { caller: string; path: string; keys: string[] },
  { includeExpired = false, now = new Date() }: { includeExpired?: boolean; now?: Date } = {},
) {
  const rows = await db.idempotencyKey.findMany({
    where: { scope: scope.caller, path: scope.path, key: { in: scope.keys } },
    select: { key: true, state: true, replayCount: true, lockedUntil: true, expiresAt: true },
  });
  return rows
    .map((row) => ({
      ...row,
      state: row.state === "COMPLETED" ? ("completed" as const) : ("in_progress" as const),
    }))
    .filter((view) => includeExpired || view.state === "in_progress" || view.expiresAt > now);
}

/** How all of a caller's keys stand: executions in progress, completed ones, and the requests answered from them. */
export async function tallyKeys(db: Db, caller: string) {
  const groups = await db.idempotencyKey.groupBy({
    by: ["state"],
    where: { scope: caller },
    _count: { _all: true },
    _sum: { replayCount: true },
  });
  const keysIn = (state: "IN_PROGRESS" | "COMPLETED") =>
    groups.find((group) => group.state === state)?._count._all ?? 0;
  return {
    inProgress: keysIn("IN_PROGRESS"),
    completed: keysIn("COMPLETED"),
    replays: groups.reduce((sum, group) => sum + (group._sum.replayCount ?? 0), 0),
  };
}
