"use client";

import { useState } from "react";
import { shortId } from "~/app/_lib/short-id";

interface ShortIdProps {
  value: string;
  name: string;
  testId?: string;
  copyable?: boolean;
}

/** An id's short form, the whole id in its tooltip, copyable unless the same id is copyable nearby. */
export function ShortId({ value, name, testId, copyable = true }: ShortIdProps) {
  const [copied, setCopied] = useState(false);
  const code = (
    <code title={value} data-value={value} data-testid={testId}>
      {shortId(value)}
    </code>
  );
  if (!copyable) return <span className="short-id">{code}</span>;
  return (
    <span className="short-id">
      {code}
      <button
        type="button"
        className="copy-button"
        aria-label={`Copy the ${name} ${value}`}
        onClick={() =>
          void navigator.clipboard.writeText(value).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1_500);
          })
        }
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <rect x="5" y="5" width="9" height="9" rx="2" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path
            d="M11 3.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
          />
        </svg>
      </button>
      <span role="status" className={copied ? "copied" : "visually-hidden"}>
        {copied ? "Copied" : ""}
      </span>
    </span>
  );
}
