import type { MaintenanceRun } from "../domain/maintenance.ts";
import { WorkQueue } from "../platform/work-queue.ts";
import { DeposedWriterError, type WriterFence } from "../store/index.ts";
import { MaintenanceRunExecution, type MaintenanceRunDeps, type RunStop } from "./maintenance-run.ts";

// The writer's side of maintenance, shaped like a controller: level-triggered from what the store
// holds. Every Running run is run by the writer, and by no other replica: one this process is not
// running yet is taken up (a new one, or one a stopped writer left: it is resumed from its saved
// progress); one asked to stop is stopped after its current step. It looks again whenever any
// replica changes a run (the store tells), when leadership changes, and every RESYNC_MS in case a
// word was lost. A replica that stops being the writer stops its runs where they are, for the
// next writer to resume.

const RESYNC_MS = 10_000;

export interface MaintenanceWriter {
  /** This replica, as a run names who runs it. */
  replica: string;
  leading(): boolean;
  fence(): WriterFence | undefined;
}

export interface MaintenanceRunnerDeps extends MaintenanceRunDeps {
  writer: MaintenanceWriter;
  resyncMs?: number;
  onError?: (error: unknown) => void;
}

interface Running {
  abort: AbortController;
  done: Promise<MaintenanceRun | null>;
}

export class MaintenanceRunner {
  private readonly running = new Map<string, Running>();
  /** One key — every run — looked at once however often it is poked, and again after a failure. */
  private readonly looks: WorkQueue<"runs">;
  private stopped = false;
  private stopHearing = () => {};
  private resync: NodeJS.Timeout | undefined;

  constructor(private readonly deps: MaintenanceRunnerDeps) {
    this.looks = new WorkQueue({ identify: () => "runs", reconcile: () => this.reconcile(), onError: (error) => deps.onError?.(error) });
  }

  start(): void {
    this.stopHearing = this.deps.store.maintenance.onChanged(() => this.poke());
    this.resync = setInterval(() => this.poke(), this.deps.resyncMs ?? RESYNC_MS);
    this.resync.unref?.();
    this.poke();
  }

  /** Stops every run here where it is (the next writer resumes them) and looks no more. */
  stop(): void {
    this.stopped = true;
    this.stopHearing();
    clearInterval(this.resync);
    this.looks.stop();
    this.stopAll("deposed");
  }

  /** Looks again at what the store holds. */
  poke(): void {
    this.looks.add("runs");
  }

  /** The run once it has ended — here or in whichever replica writes (tests, benchmarks). */
  async finished(id: string): Promise<MaintenanceRun | null> {
    // Run here, it ends when its execution does: no need to read it again at every step.
    await this.running.get(id)?.done;
    for (;;) {
      const changed = new Promise<void>((resolve) => {
        const stopHearing = this.deps.store.maintenance.onChanged((changedId) => {
          if (changedId === id || changedId === null) finish();
        });
        const timer = setTimeout(() => finish(), 1_000);
        const finish = () => {
          clearTimeout(timer);
          stopHearing();
          resolve();
        };
      });
      const run = await this.deps.store.maintenance.getRun(id);
      if (!run || run.state !== "Running") return run;
      await changed;
    }
  }

  /** Whether this replica runs the run now. */
  runs(id: string): boolean {
    return this.running.has(id);
  }

  private async reconcile(): Promise<void> {
    const { writer } = this.deps;
    if (!writer.leading()) {
      this.stopAll("deposed");
      return;
    }
    for (const run of await this.deps.store.maintenance.listRunning()) {
      if (this.stopped || !writer.leading()) return;
      const here = this.running.get(run.id);
      if (here) {
        if (run.cancelRequested) here.abort.abort("cancelled" satisfies RunStop);
        continue;
      }
      const fence = writer.fence();
      const taken = await this.deps.store.maintenance.takeRun(run.id, writer.replica, fence).catch((error: unknown) => {
        if (error instanceof DeposedWriterError) return null;
        throw error;
      });
      if (!taken) continue;
      const abort = new AbortController();
      if (taken.run.cancelRequested) abort.abort("cancelled" satisfies RunStop);
      const done = new MaintenanceRunExecution(this.deps, taken, abort.signal, fence)
        .execute()
        .catch((error: unknown) => {
          this.deps.onError?.(error);
          return null;
        })
        // A run left unfinished here (the store failed, or this replica was deposed) is looked at
        // again at the next resync, or by the next writer.
        .finally(() => this.running.delete(run.id));
      this.running.set(run.id, { abort, done });
    }
  }

  private stopAll(reason: RunStop): void {
    for (const { abort } of this.running.values()) abort.abort(reason);
  }
}
