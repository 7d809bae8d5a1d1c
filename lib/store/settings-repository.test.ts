import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import type { Store } from "./open-store.ts";
import type { GatewaySettingKey } from "./settings-repository.ts";
import { openTestStore, testStoreKind } from "./test-databases.ts";

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ store, cleanup } = await openTestStore()));
afterAll(() => cleanup());
// Settings are one set per database: every test starts from none.
const everyKey = Object.keys(gatewayDefaultsSchema.shape) as GatewaySettingKey[];
beforeEach(() => store.settings.resetGatewaySettings(everyKey, "test-setup"));

describe(`gateway settings (${testStoreKind})`, () => {
  it("round-trip, with who changed them", async () => {
    await store.settings.saveGatewaySettings({ workspaceBackend: "ephemeral", workspaceDefaultStorageSize: "5Gi" }, "alice");
    const saved = await store.settings.getGatewaySettings();
    expect(saved.map(({ key, value, updatedBy }) => ({ key, value, updatedBy }))).toEqual([
      { key: "workspaceBackend", value: "ephemeral", updatedBy: "alice" },
      { key: "workspaceDefaultStorageSize", value: "5Gi", updatedBy: "alice" },
    ]);
  });

  it("store 'unset' as null, distinct from the empty storage class", async () => {
    await store.settings.saveGatewaySettings({ workspaceStorageClass: null }, "alice");
    await store.settings.saveGatewaySettings({ labelPrefix: "example.com" }, "alice");
    const [labelPrefix, storageClass] = await store.settings.getGatewaySettings();
    expect([labelPrefix?.value, storageClass?.value]).toEqual(["example.com", null]);
  });

  it("write an audit entry with the change from and to, in the same transaction", async () => {
    await store.settings.saveGatewaySettings({ workspaceBackend: "pvc" }, "alice");
    await store.settings.saveGatewaySettings({ workspaceBackend: "ephemeral" }, "bob");
    const { items } = await store.audit.listChanges({ limit: 1, targetKind: "GatewaySettings" });
    expect(items[0]).toMatchObject({
      actor: "bob",
      action: "settings.update",
      details: { changes: { workspaceBackend: { from: "pvc", to: "ephemeral" } } },
    });
  });

  it("drop overrides on reset so the server's configuration applies again", async () => {
    await store.settings.saveGatewaySettings({ workspaceBackend: "ephemeral" }, "alice");
    await store.settings.resetGatewaySettings(["workspaceBackend"], "alice");
    expect(await store.settings.getGatewaySettings()).toEqual([]);
  });
});
