/** A promise a test resolves when it chooses: what keeps an execution in flight until the test says so. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
