import { TRPCError } from "@trpc/server";
import { describe, expect } from "vitest";
import { z } from "zod";
import { newSessionId } from "../../session";
import { test } from "~/testing/fixtures";
import type { TestApp } from "~/testing/test-app";
import { createContextInner } from "../context";
import { createCallerFactory, router } from "../init";
import { runOnceProcedure } from "../procedures";
import { idempotencyKeySchema } from "../../idempotency-key-schema";

/** The adapter over the core: procedures of its own, with the handlers a mistake or a choice would write. */
const input = z.strictObject({ idempotencyKey: idempotencyKeySchema, value: z.number() });
const output = z.object({ value: z.number() });
let writes = 0;

const probeRouter = router({
  forgetsCommit: runOnceProcedure(input, output).mutation(async ({ input }) => {
    writes += 1; // a side effect outside any transaction the key could join
    return { value: input.value };
  }),
  commits: runOnceProcedure(input, output).mutation(({ ctx, input }) =>
    ctx.execution.commit(async () => {
      writes += 1;
      return { value: input.value };
    }),
  ),
  crashes: runOnceProcedure(input, output).mutation(async () => {
    throw new Error("connection reset by the card network");
  }),
  declines: runOnceProcedure(input, output).mutation(({ ctx }) =>
    ctx.execution.commit(async () => {
      writes += 1;
      throw new TRPCError({ code: "PAYMENT_REQUIRED", message: "declined" });
    }),
  ),
});

const callerOf = (app: TestApp) =>
  createCallerFactory(probeRouter)(createContextInner({ services: app.services, sessionId: newSessionId() }));

describe("the run-once middleware", () => {
  test("refuses a handler that returns without commit(): a 500, and no key left behind", async ({
    startApp,
  }) => {
    const app = await startApp();
    const caller = callerOf(app);
    await expect(caller.forgetsCommit({ idempotencyKey: "k", value: 1 })).rejects.toMatchObject({
      code: "INTERNAL_SERVER_ERROR",
      message: expect.stringContaining("without calling commit()"),
    });
    expect(await app.services.db.idempotencyKey.count()).toBe(0);
  });

  test("answers a crash before commit with a retryable 503 and no key", async ({ startApp }) => {
    const app = await startApp();
    await expect(callerOf(app).crashes({ idempotencyKey: "k", value: 1 })).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      reason: "TRANSIENT_FAILURE",
      retryAfterSeconds: 1,
    });
    expect(await app.services.db.idempotencyKey.count()).toBe(0);
  });

  test("stores a final error thrown inside commit() and replays it, with its code", async ({ startApp }) => {
    const app = await startApp();
    const caller = callerOf(app);
    writes = 0;
    for (let i = 0; i < 2; i++) {
      await expect(caller.declines({ idempotencyKey: "k", value: 1 })).rejects.toMatchObject({
        code: "PAYMENT_REQUIRED",
        message: "declined",
      });
    }
    expect(writes).toBe(1);
  });

  test("maps a key reused with another body to 422", async ({ startApp }) => {
    const app = await startApp();
    const caller = callerOf(app);
    await caller.commits({ idempotencyKey: "k", value: 1 });
    await expect(caller.commits({ idempotencyKey: "k", value: 2 })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      reason: "IDEMPOTENCY_KEY_REUSED",
    });
  });
});
