import { describe, expect, it } from "vitest";
import { TurnQueue } from "./turn-queue.ts";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A queue's work as it is let in: `entered` lists the names in the order they went in. */
function admitting(perTurn: number) {
  const queue = new TurnQueue(perTurn);
  const entered: string[] = [];
  return { queue, entered, admit: (...names: string[]) => names.forEach((name) => queue.enter(() => entered.push(name))) };
}

describe("a turn queue", () => {
  it("lets work in at once when nothing waits", () => {
    const { admit, entered } = admitting(2);
    admit("a");
    expect(entered).toEqual(["a"]);
  });

  it("lets a crowd in a few per turn of the event loop, in the order it came", async () => {
    const { admit, entered } = admitting(2);
    admit("a", "b", "c", "d", "e");
    const turns = [[...entered]];
    await nextTurn();
    turns.push([...entered]);
    await nextTurn();
    turns.push([...entered]);
    expect(turns).toEqual([["a", "b"], ["a", "b", "c", "d"], ["a", "b", "c", "d", "e"]]);
  });

  it("puts work that comes while other work waits behind it, even when its turn has room", async () => {
    const { admit, entered } = admitting(2);
    admit("a", "b", "c", "d", "e");
    await nextTurn();
    admit("f");
    const beforeItsTurn = [...entered];
    await nextTurn();
    expect({ beforeItsTurn, after: entered }).toEqual({ beforeItsTurn: ["a", "b", "c", "d"], after: ["a", "b", "c", "d", "e", "f"] });
  });

  it("lets the rest in when one piece of work throws", async () => {
    const { queue, entered } = admitting(1);
    const failing = () => {
      throw new Error("broken work");
    };
    const quiet = console.error;
    console.error = () => {};
    try {
      queue.enter(failing);
      queue.enter(() => entered.push("after"));
      await nextTurn();
    } finally {
      console.error = quiet;
    }
    expect(entered).toEqual(["after"]);
  });

  it("gives async work its turn: the second waits for the next turn of the event loop", async () => {
    const queue = new TurnQueue(1);
    const order: string[] = [];
    void queue.turn().then(() => order.push("first"));
    void queue.turn().then(() => order.push("second"));
    await Promise.resolve();
    const thisTurn = [...order];
    await nextTurn();
    expect({ thisTurn, next: order }).toEqual({ thisTurn: ["first"], next: ["first", "second"] });
  });
});
