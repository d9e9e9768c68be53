/** sessionStorage lives as long as the tab (a submission key, a try log); failures are tolerated. */
function tolerant<T>(act: (storage: Storage) => T, otherwise: T): T {
  try {
    return act(window.sessionStorage);
  } catch {
    // Storage is a convenience here; the server's records are the truth.
    return otherwise;
  }
}

export function readSessionItem<T>(key: string, parse: (value: unknown) => T | null): T | null {
  return tolerant((storage) => {
    const raw = storage.getItem(key);
    return raw === null ? null : parse(JSON.parse(raw));
  }, null);
}

export const writeSessionItem = (key: string, value: unknown) =>
  tolerant((storage) => storage.setItem(key, JSON.stringify(value)), undefined);

export const removeSessionItem = (key: string) => tolerant((storage) => storage.removeItem(key), undefined);
