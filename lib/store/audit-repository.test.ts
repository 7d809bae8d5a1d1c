import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewAuditEntry } from "../domain/audit.ts";
import type { Store } from "./open-store.ts";
import { openTestStore, testStoreKind } from "./test-databases.ts";
import { uniqueName } from "./test-fixtures.ts";

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ store, cleanup } = await openTestStore()));
afterAll(() => cleanup());

function aChange(overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return { actor: anActor("alice"), action: "sandbox.create", targetKind: "Sandbox", targetId: uniqueName(), outcome: "Succeeded", ...overrides };
}

describe(`the audit log (${testStoreKind})`, () => {
  it("round-trips an entry with its details", async () => {
    const entry = aChange({ details: { claims: ["workspace-box"], dryRun: false } });
    const recorded = await store.audit.recordChange(entry);
    const { items } = await store.audit.listChanges({ limit: 1, targetKind: "Sandbox", targetId: entry.targetId });
    expect(items).toEqual([recorded]);
  });

  it("pages through one target's changes, newest first", async () => {
    const targetId = uniqueName();
    for (const action of ["sandbox.create", "sandbox.stop", "sandbox.start"]) {
      await store.audit.recordChange(aChange({ targetId, action }));
    }
    const first = await store.audit.listChanges({ limit: 2, targetKind: "Sandbox", targetId });
    const second = await store.audit.listChanges({ limit: 2, targetKind: "Sandbox", targetId, cursor: first.nextCursor! });
    expect([...first.items, ...second.items].map((entry) => entry.action)).toEqual(["sandbox.start", "sandbox.stop", "sandbox.create"]);
  });

  it("refuses a cursor it did not hand out, even one holding a number past a bigint", async () => {
    const forged = Buffer.from("9999999999999999999", "utf8").toString("base64url");
    await expect(store.audit.listChanges({ limit: 2, cursor: forged })).rejects.toMatchObject({ name: "InvalidCursorError" });
  });

  it("records failures as well as successes", async () => {
    const recorded = await store.audit.recordChange(aChange({ outcome: "Failed", details: { error: "claim is in use" } }));
    expect(recorded.outcome).toBe("Failed");
  });

  it("refuses an action that is not a dotted verb", async () => {
    await expect(store.audit.recordChange(aChange({ action: "Create Sandbox" }))).rejects.toThrow(/sandbox\.create/);
  });
});
