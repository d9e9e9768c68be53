"use client";

import { useCallback, useEffect, useState } from "react";
import { readSessionItem, writeSessionItem } from "./session-storage";

const STORAGE_KEY = "checkout.submissionKey";
const newKey = () => `sub_${crypto.randomUUID()}`;

/** The order form's key: made when first shown, kept across reloads until its order is placed. */
export function useSubmissionKey(): { submissionKey: string | null; orderPlaced: () => void } {
  const [submissionKey, setSubmissionKey] = useState<string | null>(null);

  const keep = useCallback((key: string) => {
    writeSessionItem(STORAGE_KEY, key);
    setSubmissionKey(key);
  }, []);

  useEffect(() => {
    // Read after mount: the key lives in the browser, and the server render has none.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    keep(readSessionItem(STORAGE_KEY, (value) => (typeof value === "string" ? value : null)) ?? newKey());
  }, [keep]);

  const orderPlaced = useCallback(() => keep(newKey()), [keep]);

  return { submissionKey, orderPlaced };
}
