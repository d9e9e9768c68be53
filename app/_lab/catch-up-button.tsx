"use client";

import { useMutation } from "@tanstack/react-query";
import { useLabTRPC } from "~/app/_trpc/provider";

/** Runs the catch-up's pass now, fresh events too, and says how many events it handled. */
export function CatchUpButton({ disabled }: { disabled: boolean }) {
  const trpc = useLabTRPC();
  const pass = useMutation(trpc.lab.catchUpNow.mutationOptions());
  return (
    <p>
      <button
        type="button"
        className="secondary"
        disabled={disabled || pass.isPending}
        onClick={() => pass.mutate()}
      >
        Run the catch-up now
      </button>{" "}
      {(pass.data !== undefined || pass.error) && (
        <span role="status" className="small" data-testid="catch-up-answer">
          {pass.error
            ? `The catch-up failed: ${pass.error.message}`
            : pass.data === 0
              ? "The catch-up handled no event: none was due, or another road held its payment's key. Press it again in a moment."
              : `The catch-up handled ${pass.data} event${pass.data === 1 ? "" : "s"}.`}
        </span>
      )}
    </p>
  );
}
