/**
 * sessionStorage survives a reload of the tab but not its closing, which is the
 * lifetime of a form's submission key and of a tab's attempt log. Reads and
 * writes tolerate storage being unavailable (private modes, quotas).
 */
export function readSessionItem<T>(key: string, parse: (value: unknown) => T | null): T | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    return raw === null ? null : parse(JSON.parse(raw));
  } catch {
    return null;
  }
}

export function writeSessionItem(key: string, value: unknown): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage is a convenience here; the server's records are the truth.
  }
}

export function removeSessionItem(key: string): void {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // As above.
  }
}
