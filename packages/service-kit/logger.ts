import { pino } from "pino";

/** Structured JSON logs on stdout; LOG_LEVEL=debug shows every run-once decision. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { pid: process.pid },
});

export type Logger = typeof logger;
