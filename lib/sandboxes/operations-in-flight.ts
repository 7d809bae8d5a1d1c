// Operations this process is running on sandboxes, one registry per kind: creates and deletes
// (the reconciler leaves those sandboxes alone while they are half-made or half-gone on purpose,
// and looks again as soon as each settles; a record whose create is in no process's registry
// and never finished was interrupted, and the reconciler undoes it), and checkpoints (the
// sandbox shows Checkpointing while one runs).

type Listener = (id: string) => void;

export class OperationsInFlight {
  private readonly ids = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private readonly began = new Set<Listener>();

  /** Runs the operation on the sandbox with this id, registered for as long as it runs. */
  async run<T>(id: string, operation: () => Promise<T>): Promise<T> {
    this.ids.add(id);
    for (const listener of this.began) listener(id);
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

  onSettled(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told when an operation begins and when it settles. */
  onChange(listener: Listener): () => void {
    this.began.add(listener);
    this.listeners.add(listener);
    return () => {
      this.began.delete(listener);
      this.listeners.delete(listener);
    };
  }
}

/** For callers with no reconciler to tell (scripts, benchmarks, tests of one action). */
export const untracked = { run: <T>(_id: string, operation: () => Promise<T>) => operation() };
