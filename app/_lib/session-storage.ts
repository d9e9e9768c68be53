/** sessionStorage lives as long as the tab (a submission key, an attempt log); failures are tolerated. */
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
