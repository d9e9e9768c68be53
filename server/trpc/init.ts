/** tRPC's one initialisation: the context type, the error shape, and the building blocks. */
import { initTRPC } from "@trpc/server";
import { ZodError, z } from "zod";
import type { Context } from "./context";
import { toTrpcError } from "./error-mapping";
import { ReasonedError } from "./reasoned-error";

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? error.cause : null;
    return {
      ...shape,
      // An internal error's message can carry SQL: the client gets a fixed sentence.
      message:
        error.code === "INTERNAL_SERVER_ERROR"
          ? "Internal server error."
          : zodError
            ? `Invalid input: ${zodError.issues.map(describeIssue).join("; ")}.`
            : error.cause instanceof SyntaxError
              ? `The request body is not valid JSON: ${error.cause.message}.`
              : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        reason: error instanceof ReasonedError ? error.reason : null,
        fieldErrors: zodError ? z.flattenError(zodError).fieldErrors : null,
      },
    };
  },
});

function describeIssue(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

/** What any procedure throws reaches the client as error-mapping.ts maps it: a DomainError's status and reason. */
const mappedErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw toTrpcError(result.error);
  return result;
});

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const middleware = t.middleware;
export const publicProcedure = t.procedure.use(mappedErrors);
export const createCallerFactory = t.createCallerFactory;
