import type { MutationCache, MutationKey } from "@tanstack/react-query";

/** Resolves once no mutation under `mutationKey` is pending (React Query has hooks for this, no promise). */
export function savesSettled(cache: MutationCache, mutationKey: MutationKey): Promise<void> {
  const pending = () => cache.findAll({ mutationKey, status: "pending" }).length > 0;
  return new Promise((resolve) => {
    if (!pending()) return resolve();
    const unsubscribe = cache.subscribe(() => {
      if (pending()) return;
      unsubscribe();
      resolve();
    });
  });
}
