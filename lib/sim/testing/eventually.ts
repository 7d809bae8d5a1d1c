/**
 * Polls `check` until it returns without throwing, then returns its value; the last failure is
 * rethrown at the deadline. For waiting on a simulated cluster that runs on its own clock.
 */
export async function eventually<T>(check: () => T | Promise<T>, { timeoutMs = 10_000, intervalMs = 20 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** Waits until `read` answers 404: the object is gone from the cluster. */
export async function eventuallyGone(read: () => Promise<unknown>, options?: { timeoutMs?: number }): Promise<void> {
  await eventually(async () => {
    try {
      await read();
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return;
      throw error;
    }
    throw new Error("still there");
  }, options);
}
