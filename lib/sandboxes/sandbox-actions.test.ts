import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { ExecTimeoutError } from "../kube/pod-exec.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import { startSimulatedCluster, type SimCluster } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { openTestStore } from "../store/test-databases.ts";
import { createSandbox } from "./create-sandbox.ts";
import { SandboxStateError } from "./lifecycle-errors.ts";
import { deleteSandbox, execInSandbox, recoverSandbox, setSandboxRunning, type ActionDeps } from "./sandbox-actions.ts";

// Stop, start, exec and delete through the lifecycle service against the embedded cluster.

let sim: SimCluster;
let closeStore: () => Promise<void>;
let deps: ActionDeps;

beforeAll(async () => {
  sim = await startSimulatedCluster({ clockScale: 200 });
  const connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
  const { store, cleanup } = await openTestStore();
  closeStore = cleanup;
  deps = { store, connection, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1", defaults: gatewayDefaultsSchema.parse({}) };
});
afterAll(async () => {
  await sim.stop();
  await closeStore();
});

let counter = 0;
const uniqueName = () => `act-${++counter}-${Date.now().toString(36)}`;

async function runningSandbox(spec: Record<string, unknown> = {}) {
  const name = uniqueName();
  const { record } = await createSandbox(deps, { name, ...spec }, anActor("alice"));
  await eventually(async () => {
    const pod = await deps.resources.readPod("default", name);
    if (pod?.status?.phase !== "Running") throw new Error("not running");
  });
  return record;
}

/** Deletes the sandbox's pod and waits for the controller's replacement to run. */
async function replacePod(name: string) {
  const first = await deps.resources.readPod("default", name);
  await deps.resources.deletePod("default", name, 0);
  await until(async () => {
    const pod = await deps.resources.readPod("default", name);
    return pod?.status?.phase === "Running" && pod.metadata?.uid !== first?.metadata?.uid;
  }, "not replaced");
}

async function until(check: () => Promise<boolean>, what: string) {
  await eventually(async () => {
    if (!(await check())) throw new Error(what);
  });
}

describe("exec", () => {
  it("runs a command in the agent container and returns its exit code and output", async () => {
    const record = await runningSandbox();
    const result = await execInSandbox(deps, record.id, ["sh", "-c", "echo out; echo err >&2; exit 3"], 10, anActor("alice"));
    expect(result).toEqual({ exitCode: 3, stdout: "out\n", stderr: "err\n" });
  });

  it("stops a command that outlives its timeout", async () => {
    const record = await runningSandbox();
    await expect(execInSandbox(deps, record.id, ["sleep", "100000"], 1, anActor("alice"))).rejects.toBeInstanceOf(ExecTimeoutError);
  });

  it("is refused while the sandbox is stopped", async () => {
    const record = await runningSandbox();
    await setSandboxRunning(deps, record.id, false, anActor("alice"));
    await until(async () => (await deps.resources.readPod("default", record.name)) === null, "pod still there");
    await expect(execInSandbox(deps, record.id, ["true"], 5, anActor("alice"))).rejects.toBeInstanceOf(SandboxStateError);
  });
});

describe("stop and start", () => {
  it("keep the workspace: a file written before the stop is there after the start", async () => {
    const record = await runningSandbox();
    await execInSandbox(deps, record.id, ["sh", "-c", "echo kept > /sandbox/session.txt"], 10, anActor("alice"));
    await setSandboxRunning(deps, record.id, false, anActor("alice"));
    await until(async () => (await deps.resources.readPod("default", record.name)) === null, "pod still there");
    await setSandboxRunning(deps, record.id, true, anActor("alice"));
    await until(async () => (await deps.resources.readPod("default", record.name))?.status?.phase === "Running", "not running again");
    expect((await execInSandbox(deps, record.id, ["cat", "/sandbox/session.txt"], 10, anActor("alice"))).stdout).toBe("kept\n");
  });
});

describe("delete", () => {
  it("removes a delete claim and keeps a retained one", async () => {
    const scratch = `scratch-${uniqueName()}`;
    const record = await runningSandbox({
      workspace: { claim: { ownership: "retain" } },
      volumes: [{ name: "scratch", pvc: { claimName: scratch, deleteOnSandboxTermination: true }, mountPath: "/scratch" }],
    });
    const { removedClaims, keptClaims } = await deleteSandbox(deps, record.id, anActor("alice"));
    expect([removedClaims, keptClaims]).toEqual([[scratch], [`workspace-${record.name}`]]);
  });

  it("sweeps its delete claims even when the Sandbox was deleted behind Berth's back", async () => {
    const record = await runningSandbox({ workspace: { claim: { ownership: "delete" } } });
    await deps.resources.deleteSandbox("default", record.name);
    const { removedClaims } = await deleteSandbox(deps, record.id, anActor("alice"));
    await until(async () => (await deps.resources.readClaim("default", `workspace-${record.name}`)) === null, "claim still there");
    expect(removedClaims).toEqual([`workspace-${record.name}`]);
  });

  it("keeps the record and its timeline, marked deleted", async () => {
    const record = await runningSandbox();
    await deleteSandbox(deps, record.id, anActor("alice"));
    const kept = await deps.store.sandboxes.getSandbox(record.id);
    const timeline = await deps.store.timeline.listForSandbox(record.id, { limit: 10 });
    expect([kept?.phase, timeline.map((event) => event.reason)]).toEqual(["Deleted", ["Created", "Deleted"]]);
  });
});

describe("the timeline says who acted", () => {
  it("names the person on each lifecycle entry they caused", async () => {
    const record = await runningSandbox();
    await setSandboxRunning(deps, record.id, false, anActor("bob"));
    await deleteSandbox(deps, record.id, anActor("carol"));
    const timeline = await deps.store.timeline.listForSandbox(record.id, { limit: 10 });
    expect(timeline.map((event) => [event.reason, event.data?.by])).toEqual([
      ["Created", "alice"],
      ["StopRequested", "bob"],
      ["Deleted", "carol"],
    ]);
  });
});

describe("recover", () => {
  it("replaces a pod the kubelet evicted to Failed, keeping the workspace", async () => {
    const record = await runningSandbox();
    await execInSandbox(deps, record.id, ["sh", "-c", "echo kept > /sandbox/session.txt"], 10, anActor("alice"));
    const failed = await deps.resources.readPod("default", record.name);
    await fetch(`${sim.serverUrl}/sim/v1/namespaces/default/pods/${record.name}/kubelet-evict`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${sim.adminToken}` }, body: "{}" });
    await recoverSandbox(deps, record.id, anActor("alice"));
    await until(async () => {
      const pod = await deps.resources.readPod("default", record.name);
      return pod?.status?.phase === "Running" && pod.metadata?.uid !== failed?.metadata?.uid;
    }, "not replaced");
    expect((await execInSandbox(deps, record.id, ["cat", "/sandbox/session.txt"], 10, anActor("alice"))).stdout).toBe("kept\n");
  });

  it("is refused when the pod is running fine", async () => {
    const record = await runningSandbox();
    await expect(recoverSandbox(deps, record.id, anActor("alice"))).rejects.toBeInstanceOf(SandboxStateError);
  });
});

describe("workspace persistence for each profile", () => {
  it.each([
    ["generic", "/sandbox/session.txt"],
    ["claude", "/sandbox/.claude/context.json"],
    ["opencode", "/sandbox/.opencode/state.json"],
  ])("%s: a file written in its state path reads back from the claim after the pod is replaced", async (profile, file) => {
    const record = await runningSandbox({ profile });
    await execInSandbox(deps, record.id, ["sh", "-c", `mkdir -p $(dirname ${file}) && echo '{"turn":1}' > ${file}`], 10, anActor("alice"));
    await replacePod(record.name);
    expect((await execInSandbox(deps, record.id, ["cat", file], 10, anActor("alice"))).stdout).toBe('{"turn":1}\n');
  });
});

describe("resuming from a retained claim", () => {
  it("gives a new sandbox the files its deleted predecessor left on the claim", async () => {
    const claimName = `kept-${uniqueName()}`;
    const first = await runningSandbox({ workspace: { claim: { ownership: "retain", claimName } } });
    await execInSandbox(deps, first.id, ["sh", "-c", "echo 'where we left off' > /sandbox/session.txt"], 10, anActor("alice"));
    await deleteSandbox(deps, first.id, anActor("alice"));
    await until(async () => (await deps.resources.readPod("default", first.name)) === null, "old pod still there");
    const second = await runningSandbox({ workspace: { claim: { ownership: "existing", claimName } } });
    expect((await execInSandbox(deps, second.id, ["cat", "/sandbox/session.txt"], 10, anActor("alice"))).stdout).toBe("where we left off\n");
  });

  it("keeps the claim again when the sandbox that took it up is deleted, and says so", async () => {
    const claimName = `kept-${uniqueName()}`;
    const first = await runningSandbox({ workspace: { claim: { ownership: "retain", claimName } } });
    await deleteSandbox(deps, first.id, anActor("alice"));
    await until(async () => (await deps.resources.readPod("default", first.name)) === null, "old pod still there");
    const second = await runningSandbox({ workspace: { claim: { ownership: "retain", claimName } } });
    expect((await deleteSandbox(deps, second.id, anActor("alice"))).keptClaims).toEqual([claimName]);
  });
});

describe("an ephemeral workspace", () => {
  it("is fresh, and seeded from the image again, after the pod is replaced", async () => {
    const record = await runningSandbox({ workspace: { backend: "ephemeral" } });
    await execInSandbox(deps, record.id, ["sh", "-c", "echo gone > /sandbox/scratch.txt"], 10, anActor("alice"));
    await replacePod(record.name);
    const listing = await execInSandbox(deps, record.id, ["ls", "-a", "/sandbox"], 10, anActor("alice"));
    expect([listing.stdout.includes("scratch.txt"), listing.stdout.includes("README.md")]).toEqual([false, true]);
  });
});
