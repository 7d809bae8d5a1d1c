import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { testStoreKind, useTestStore } from "./test-databases.ts";

const database = useTestStore();
const aCode = () => randomBytes(12).toString("base64url");
const inAMinute = () => new Date(Date.now() + 60_000);

describe(`spent one-time codes (${testStoreKind})`, () => {
  it("spends a code the first time", async () => {
    expect(await database.store.spentCodes.spend(aCode(), inAMinute())).toBe(true);
  });

  it("refuses to spend a code twice", async () => {
    const code = aCode();
    await database.store.spentCodes.spend(code, inAMinute());
    expect(await database.store.spentCodes.spend(code, inAMinute())).toBe(false);
  });

  it("spends a code once when two replicas try at the same time", async () => {
    const code = aCode();
    const spent = await Promise.all([database.store.spentCodes.spend(code, inAMinute()), database.store.spentCodes.spend(code, inAMinute())]);
    expect(spent.sort()).toEqual([false, true]);
  });

  it("forgets a code once it has expired", async () => {
    const code = aCode();
    await database.store.spentCodes.spend(code, new Date(Date.now() - 1000));
    expect(await database.store.spentCodes.spend(code, inAMinute())).toBe(true);
  });
});
