import { anActor } from "../domain/test-fixtures.ts";
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
beforeEach(() => store.settings.resetGatewaySettings(everyKey, anActor("test-setup")));

describe(`gateway settings (${testStoreKind})`, () => {
  it("round-trip, with who changed them", async () => {
    await store.settings.saveGatewaySettings({ workspaceBackend: "ephemeral", workspaceDefaultStorageSize: "5Gi" }, anActor("alice"));
    const saved = await store.settings.getGatewaySettings();
    expect(saved.map(({ key, value, updatedBy }) => ({ key, value, updatedBy }))).toEqual([
      { key: "workspaceBackend", value: "ephemeral", updatedBy: "alice" },
      { key: "workspaceDefaultStorageSize", value: "5Gi", updatedBy: "alice" },
    ]);
  });

  it("store 'unset' as null, distinct from the empty storage class", async () => {
    await store.settings.saveGatewaySettings({ workspaceStorageClass: null }, anActor("alice"));
    await store.settings.saveGatewaySettings({ labelPrefix: "example.com" }, anActor("alice"));
    const [labelPrefix, storageClass] = await store.settings.getGatewaySettings();
    expect([labelPrefix?.value, storageClass?.value]).toEqual(["example.com", null]);
  });

  it("write an audit entry with the change from and to, in the same transaction", async () => {
    await store.settings.saveGatewaySettings({ workspaceBackend: "pvc" }, anActor("alice"));
    await store.settings.saveGatewaySettings({ workspaceBackend: "ephemeral" }, anActor("bob"));
    const { items } = await store.audit.listChanges({ limit: 1, targetKind: "GatewaySettings" });
    expect(items[0]).toMatchObject({
      actor: "bob",
      action: "settings.update",
      details: { changes: { workspaceBackend: { from: "pvc", to: "ephemeral" } } },
    });
  });

  it("drop overrides on reset so the server's configuration applies again", async () => {
    await store.settings.saveGatewaySettings({ workspaceBackend: "ephemeral" }, anActor("alice"));
    await store.settings.resetGatewaySettings(["workspaceBackend"], anActor("alice"));
    expect(await store.settings.getGatewaySettings()).toEqual([]);
  });
});

describe(`gateway settings changes, as the Settings history shows them (${testStoreKind})`, () => {
  it("record what a first change replaced from the configuration, and leave out what did not change", async () => {
    const configured = { workspaceBackend: "pvc" as const, workspaceStorageClass: null };
    const made = await store.settings.saveGatewaySettings({ workspaceBackend: "ephemeral", workspaceStorageClass: "" }, anActor("carol"), configured);
    expect(made).toEqual({ workspaceBackend: { from: "pvc", to: "ephemeral" }, workspaceStorageClass: { from: null, to: "" } });
    const again = await store.settings.saveGatewaySettings({ workspaceBackend: "ephemeral", workspaceStorageClass: null }, anActor("dave"), configured);
    expect(again).toEqual({ workspaceStorageClass: { from: "", to: null } });
    const { items } = await store.audit.listChanges({ limit: 1, targetKind: "GatewaySettings" });
    expect(items[0]).toMatchObject({ actor: "dave", details: { changes: { workspaceStorageClass: { from: "", to: null } } } });
  });

  it("write nothing when nothing changes", async () => {
    await store.settings.saveGatewaySettings({ sandboxNamespace: "agents" }, anActor("carol"));
    const before = await store.audit.listChanges({ limit: 1, targetKind: "GatewaySettings" });
    expect(await store.settings.saveGatewaySettings({ sandboxNamespace: "agents" }, anActor("dave"))).toEqual({});
    expect((await store.audit.listChanges({ limit: 1, targetKind: "GatewaySettings" })).items[0]?.id).toBe(before.items[0]?.id);
  });

  it("record a reset as a change back to the configuration", async () => {
    await store.settings.saveGatewaySettings({ workspaceDefaultStorageSize: "9Gi" }, anActor("carol"));
    const made = await store.settings.resetGatewaySettings(["workspaceDefaultStorageSize"], anActor("dave"), { workspaceDefaultStorageSize: "2Gi" });
    expect(made).toEqual({ workspaceDefaultStorageSize: { from: "9Gi", to: "2Gi" } });
  });
});
