// The creates and deletes this process is running. The reconciler leaves those sandboxes alone
// while they are half-made or half-gone on purpose, and looks again as soon as each settles. A
// record whose create is in no process's registry and never finished was interrupted: the
// reconciler undoes it.

type SettledListener = (id: string) => void;

export class OperationsInFlight {
  private readonly ids = new Set<string>();
  private readonly listeners = new Set<SettledListener>();

  /** Runs the operation on the sandbox with this id, registered for as long as it runs. */
  async run<T>(id: string, operation: () => Promise<T>): Promise<T> {
    this.ids.add(id);
    try {
      return await operation();
    } finally {
      this.ids.delete(id);
      for (const listener of this.listeners) listener(id);
    }
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  onSettled(listener: SettledListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** For callers with no reconciler to tell (scripts, benchmarks, tests of one action). */
export const untracked = { run: <T>(_id: string, operation: () => Promise<T>) => operation() };
