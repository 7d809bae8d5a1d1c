import { describe, expect, it } from "vitest";
import { anActor } from "../domain/test-fixtures.ts";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import { startSimulatedCluster } from "../sim/index.ts";
import { useTestStore } from "../store/test-databases.ts";
import { createSandbox, dryRunCreateSandbox, type CreateSandboxDeps } from "./create-sandbox.ts";

// A dry run answers exactly what the real create would: the same outcome, the same problems, the
// same objects. Each spec is tried on a fresh cluster twice — once as a dry run, once for real —
// with the same claims made beforehand. The store is shared: each row's sandbox has a name of
// its own, and a dry run records nothing.

interface Row {
  situation: string;
  spec: Record<string, unknown>;
  /** Claims in the namespace before the create: by name, and whether Berth made them. */
  claims?: { name: string; madeByBerth: boolean }[];
}

const ROWS: Row[] = [
  { situation: "an ephemeral workspace", spec: { name: "box", workspace: { backend: "ephemeral" } } },
  { situation: "a claim of its own, deleted with it", spec: { name: "box", workspace: { backend: "pvc", claim: { ownership: "delete" } } } },
  { situation: "an existing claim that does not exist", spec: { name: "box", workspace: { backend: "pvc", claim: { ownership: "existing", claimName: "nowhere" } } } },
  { situation: "an existing claim that exists", spec: { name: "box", workspace: { backend: "pvc", claim: { ownership: "existing", claimName: "data" } } }, claims: [{ name: "data", madeByBerth: false }] },
  { situation: "a retained claim Berth made, free to reuse", spec: { name: "box", workspace: { backend: "pvc", claim: { ownership: "retain", claimName: "kept" } } }, claims: [{ name: "kept", madeByBerth: true }] },
  { situation: "a retained claim Berth did not make", spec: { name: "box", workspace: { backend: "pvc", claim: { ownership: "retain", claimName: "theirs" } } }, claims: [{ name: "theirs", madeByBerth: false }] },
  { situation: "a claim to delete with it that exists already", spec: { name: "box", workspace: { backend: "pvc", claim: { ownership: "delete", claimName: "taken" } } }, claims: [{ name: "taken", madeByBerth: true }] },
  { situation: "a spec that breaks a rule", spec: { name: "Box", workspace: { backend: "ephemeral" } } },
  { situation: "eviction protection", spec: { name: "box", workspace: { backend: "ephemeral" }, disruptionPolicy: { evictionProtection: true } } },
  { situation: "a secret value", spec: { name: "box", workspace: { backend: "ephemeral" }, env: [{ name: "TOKEN", value: "s3cret", secret: true }] } },
];

interface Outcome {
  outcome: string;
  problems: unknown;
  manifests: unknown;
}

const database = useTestStore();
const defaults = gatewayDefaultsSchema.parse({});
const keys = berthLabelKeys(defaults.labelPrefix);

/** The row's create on a fresh cluster, as a dry run or for real; the sandbox's id made the same for comparing. */
async function attempt(row: Row, dryRun: boolean): Promise<Outcome> {
  const sim = await startSimulatedCluster({ defaultStorageClass: "portable" });
  const connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
  const deps: CreateSandboxDeps = { store: database.store, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1", defaults };
  for (const claim of row.claims ?? []) {
    await deps.resources.createClaim({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: claim.name, namespace: "default", labels: claim.madeByBerth ? { [keys.managedBy]: MANAGED_BY_BERTH } : {} },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    });
  }
  try {
    const { rendered } = dryRun ? await dryRunCreateSandbox(deps, row.spec) : await createSandbox(deps, row.spec, anActor("alice"));
    const id = rendered.sandbox.metadata.labels?.[keys.sandboxId] ?? "";
    return { outcome: "created", problems: [], manifests: JSON.parse(JSON.stringify(rendered).replaceAll(id, "<sandbox id>")) };
  } catch (error) {
    return { outcome: (error as Error).name, problems: (error as { problems?: unknown }).problems ?? (error as Error).message, manifests: null };
  } finally {
    await sim.stop();
  }
}

describe("a dry run of a create", () => {
  it.each(ROWS.map((row, index) => [row.situation, { ...row, spec: { ...row.spec, name: `${String(row.spec.name)}-${index}` } }] as const))("answers as the create does, for %s", async (_, row) => {
    expect(await attempt(row, true)).toEqual(await attempt(row, false));
  }, 60_000);
});
