"use client";

import { useCallback, useEffect, useState } from "react";
import { readSessionItem, removeSessionItem, writeSessionItem } from "./session-storage";

const STORAGE_KEY = "checkout.submissionKey";

/** The order form's key: made when first shown, kept across reloads until its order is placed. */
export function useSubmissionKey(): { submissionKey: string | null; orderPlaced: () => void } {
  const [submissionKey, setSubmissionKey] = useState<string | null>(null);

  useEffect(() => {
    const stored = readSessionItem(STORAGE_KEY, (value) => (typeof value === "string" ? value : null));
    const key = stored ?? `sub_${crypto.randomUUID()}`;
    writeSessionItem(STORAGE_KEY, key);
    // Read after mount: the key lives in the browser, and the server render has none.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setSubmissionKey(key);
  }, []);

  const orderPlaced = useCallback(() => {
    removeSessionItem(STORAGE_KEY);
    const next = `sub_${crypto.randomUUID()}`;
    writeSessionItem(STORAGE_KEY, next);
    setSubmissionKey(next);
  }, []);

  return { submissionKey, orderPlaced };
}
