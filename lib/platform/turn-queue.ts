import { logOf } from "./logger.ts";

// Work that arrives in a crowd, let in a few at a time per turn of the event loop, first come
// first served, so that whatever else the process has to do (a health probe, a page) gets a turn
// between. A quiet process lets everything in as it comes: nothing is refused or capped.

export class TurnQueue {
  private readonly waiting: (() => void)[] = [];
  private enteredThisTurn = 0;
  private turnEndScheduled = false;
  constructor(private readonly perTurn: number) {}

  /** Runs `work` now if this turn has room and nothing waits; else in a later turn, after what came first. */
  enter(work: () => void): void {
    if (this.waiting.length === 0 && this.enteredThisTurn < this.perTurn) {
      this.enteredThisTurn += 1;
      run(work);
    } else {
      this.waiting.push(work);
    }
    this.endTurnLater();
  }

  /** Resolves when it is the caller's turn: for async work that takes turns with others. */
  turn(): Promise<void> {
    return new Promise((resolve) => this.enter(resolve));
  }

  /** After this turn's work: a fresh count, and the next few of those waiting let in. */
  private endTurnLater(): void {
    if (this.turnEndScheduled) return;
    this.turnEndScheduled = true;
    setImmediate(() => {
      this.turnEndScheduled = false;
      this.enteredThisTurn = 0;
      for (const work of this.waiting.splice(0, this.perTurn)) {
        this.enteredThisTurn += 1;
        run(work);
      }
      if (this.enteredThisTurn > 0) this.endTurnLater();
    });
  }
}

function run(work: () => void): void {
  try {
    work();
  } catch (error) {
    // One piece of work throwing must not strand the ones behind it.
    logOf("turn-queue").error({ err: error }, "work let in by a turn queue failed");
  }
}
