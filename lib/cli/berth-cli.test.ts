import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { startApiUnderTest, type ApiUnderTest } from "@/app/api/testing/api-under-test.ts";
import { serveRouteModules, type RouteServer } from "@/app/api/testing/route-server.ts";
import { serviceAccountToken } from "@/app/api/testing/service-account-tokens.ts";
import { createBerthClient, type BerthClient } from "@/lib/client/berth-client.ts";
import { bearerTokenOf } from "@/lib/kube/cluster-connection.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { berth, follow } from "./testing/cli-under-test.ts";

// `berth` run as a person runs it — a child process — against Berth's API on the embedded
// cluster, signed in with Kubernetes tokens: a developer of team-a, someone with no Berth role,
// and the cluster's administrator.

const TEAM = "team-a";
let api: ApiUnderTest;
let server: RouteServer;
let work: string;
let admin: BerthClient;
let tokens: { admin: string; developer: string; stranger: string };
/** As the developer, with the server and token in the environment. */
let asDeveloper: Record<string, string>;

const run = (args: string[], env = asDeveloper, input = "") => berth(args, env, input);

/**
 * Creates a sandbox from a spec file (-f) whose pod stops within a second, so that stops, pod
 * deletions and drains do not wait out the default 30 s grace period; flags add to the file.
 */
async function createQuick(name: string, ...flags: string[]) {
  await createFromFile({ name, namespace: TEAM, disruptionPolicy: { terminationGracePeriodSeconds: 1 } }, ...flags);
}

async function createFromFile(spec: { name: string } & Record<string, unknown>, ...flags: string[]) {
  const { name } = spec;
  const file = path.join(work, `${name}.yaml`);
  writeFileSync(file, stringify(spec));
  const created = await run(["create", "sandbox", "-f", file, ...flags]);
  if (created.code !== 0) throw new Error(`berth create sandbox ${name} failed: ${created.stderr}`);
}
const configIn = (name: string) => ({ BERTH_CONFIG: path.join(work, `${name}.yaml`) });

beforeAll(async () => {
  api = await startApiUnderTest();
  await api.untilLive();
  server = await serveRouteModules(new URL(api.runtime.config.auth.publicUrl));
  const cluster = api.clusterAdmin();
  tokens = {
    admin: bearerTokenOf(cluster)!,
    // As a team's developers are bound (docs/security.md): berth-developer in the team's namespace, berth-cluster-viewer across the cluster.
    developer: await serviceAccountToken(cluster, { namespace: TEAM, name: "cli-developer", roles: [{ clusterRole: "berth-developer", namespace: TEAM }, { clusterRole: "berth-cluster-viewer" }] }),
    stranger: await serviceAccountToken(cluster, { namespace: TEAM, name: "cli-stranger" }),
  };
  admin = createBerthClient({ server: server.url, token: tokens.admin });
  work = mkdtempSync(path.join(tmpdir(), "berth-cli-"));
  asDeveloper = { ...configIn("developer"), BERTH_SERVER: server.url, BERTH_TOKEN: tokens.developer, BERTH_CONFIG: path.join(work, "none.yaml") };
}, 120_000);

afterAll(async () => {
  await server?.close();
  await api?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const sandboxNamed = async (name: string) => (await admin.listSandboxes({ query: { namespace: TEAM, limit: 500 } })).items.find((one) => one.name === name);
const untilPhase = (name: string, phase: string) =>
  eventually(async () => {
    const sandbox = await sandboxNamed(name);
    if (sandbox?.phase !== phase) throw new Error(`${name} is ${sandbox?.phase ?? "not there"}, not ${phase}`);
    return sandbox;
  }, { timeoutMs: 60_000 });

describe("signing in", () => {
  it("logs in with a token read from standard input, keeps it in a file only its owner may read, and whoami says who", async () => {
    const env = configIn("login");
    const login = await run(["login", "--server", server.url, "--token", "-", "-n", TEAM], env, `${tokens.developer}\n`);
    const whoami = await run(["whoami"], env);
    expect([login.code, statSync(env.BERTH_CONFIG).mode & 0o777, whoami.stdout]).toEqual([0, 0o600, expect.stringContaining("system:serviceaccount:team-a:cli-developer")]);
  });

  it("refuses a token Kubernetes does not accept, saying why, and writes no context", async () => {
    const env = configIn("refused-login");
    const login = await run(["login", "--server", server.url, "--token", "not-a-token"], env);
    expect([login.code, login.stderr.split("\n")[0], (await run(["config", "get-contexts"], env)).stdout]).toEqual([1, expect.stringMatching(/^error: .*\(HTTP 401/), "CURRENT   NAME   SERVER   NAMESPACE   CREDENTIAL\n"]);
  });

  it("says to use a token when --device asks a Berth that signs people in without a provider, and exits 1", async () => {
    const login = await run(["login", "--server", server.url, "--device"], configIn("device-login"));
    expect([login.code, login.stderr]).toEqual([1, expect.stringContaining("berth login --token")]);
  });

  it("takes only one way to sign in: --device and --token together exit 2", async () => {
    const login = await run(["login", "--server", server.url, "--device", "--token", tokens.developer], configIn("device-and-token"));
    expect([login.code, login.stderr]).toEqual([2, expect.stringContaining("--device and --token")]);
  });

  it("logs out by forgetting the token; the next call is refused", async () => {
    const env = configIn("logout");
    await run(["login", "--server", server.url, "--token", tokens.developer], env);
    await run(["logout"], env);
    expect((await run(["whoami"], env)).code).toBe(1);
  });

  it("switches contexts with config use-context", async () => {
    const env = configIn("contexts");
    await run(["login", "--server", server.url, "--token", tokens.developer, "--context-name", "dev"], env);
    await run(["login", "--server", server.url, "--token", tokens.admin, "--context-name", "admin"], env);
    await run(["config", "use-context", "dev"], env);
    expect((await run(["config", "current-context"], env)).stdout).toBe("dev\n");
  });
});

describe("creating and listing sandboxes", () => {
  it("creates a sandbox from flags and lists it in every output format", async () => {
    expect((await run(["create", "sandbox", "cli-listed", "-n", TEAM, "--workspace", "ephemeral"])).code).toBe(0);
    const listed = (format: string) => run(["get", "sandboxes", "-n", TEAM, "-o", format]);
    const [table, json, yaml, name] = await Promise.all([listed("table"), listed("json"), listed("yaml"), listed("name")]);
    // Its pod takes the default 30 s to stop: gone now, so no drain below waits for it.
    await run(["delete", "sandbox", "cli-listed", "-n", TEAM]);
    expect({
      table: table.stdout.split("\n")[0],
      json: (JSON.parse(json.stdout) as { items: { name: string }[] }).items.map((one) => one.name),
      yaml: (parse(yaml.stdout) as { items: { name: string }[] }).items.map((one) => one.name),
      name: name.stdout.split("\n"),
    }).toEqual({
      table: expect.stringMatching(/^NAME\s+PHASE\s+REASON\s+NODE\s+PROTECTED\s+LAST DISRUPTION\s+AGE$/),
      json: expect.arrayContaining(["cli-listed"]),
      yaml: expect.arrayContaining(["cli-listed"]),
      name: expect.arrayContaining(["sandbox/cli-listed"]),
    });
  });

  it("prints the exact manifests of a dry run, and creates nothing", async () => {
    const dryRun = await run(["create", "sandbox", "cli-dry", "-n", TEAM, "--storage-class", "portable", "--ownership", "retain", "--size", "2Gi", "--protect", "--dry-run", "-o", "yaml"]);
    const kinds = dryRun.stdout.split("---\n").map((document) => (parse(document) as { kind: string }).kind);
    expect([dryRun.code, kinds, await sandboxNamed("cli-dry")]).toEqual([0, ["PersistentVolumeClaim", "Sandbox", "PodDisruptionBudget"], undefined]);
  });

  it("labels the sandboxes it creates, and -l lists only those a selector picks", async () => {
    await createQuick("cli-label-ml", "--workspace", "ephemeral", "--label", "cli-team=ml", "tier=gpu");
    await createQuick("cli-label-web", "--workspace", "ephemeral", "--label", "cli-team=web");
    const picked = await Promise.all(["cli-team=ml", "cli-team in (ml,web),!tier"].map((selector) => run(["get", "sandboxes", "-n", TEAM, "-l", selector, "-o", "name"])));
    await Promise.all(["cli-label-ml", "cli-label-web"].map((name) => run(["delete", "sandbox", name, "-n", TEAM])));
    expect(picked.map((one) => one.stdout)).toEqual(["sandbox/cli-label-ml\n", "sandbox/cli-label-web\n"]);
  });

  it("refuses a selector Kubernetes would not read, saying why, and exits 1", async () => {
    const refused = await run(["get", "sandboxes", "-l", "team in (ml"]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('unclosed "("')]);
  });

  it("picks nodes by their Kubernetes labels with -l", async () => {
    const picked = await run(["get", "nodes", "-l", "kubernetes.io/hostname=worker-2", "-o", "name"]);
    expect(picked.stdout).toBe("node/worker-2\n");
  });

  it("says which resources -l can select, and exits 2 for the others", async () => {
    const refused = await run(["get", "storageclasses", "-l", "team=ml"]);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining("-l selects sandboxes, volumes, nodes by their labels")]);
  });

  it("prints the fields the server refuses and exits 1", async () => {
    const refused = await run(["create", "sandbox", "Not_A_Name", "-n", TEAM]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/^  name: /m)]);
  });

  it("passes on Kubernetes' refusal of someone with no Berth role, and exits 1", async () => {
    const refused = await run(["create", "sandbox", "cli-stranger", "-n", TEAM], { ...asDeveloper, BERTH_TOKEN: tokens.stranger });
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining("HTTP 403")]);
  });

  it("exits 2 for a command line that cannot be: an unknown option, an unknown resource", async () => {
    expect([(await run(["get", "sandboxes", "--colour"])).code, (await run(["get", "widgets"])).code]).toEqual([2, 2]);
  });

  it("says a sandbox that is not there is not found, and exits 1", async () => {
    const missing = await run(["describe", "sandbox", "cli-nowhere", "-n", TEAM]);
    expect([missing.code, missing.stderr]).toEqual([1, 'error: sandbox "cli-nowhere" not found in namespace team-a\n']);
  });
});

describe("operating on a sandbox", () => {
  beforeAll(async () => {
    await createQuick("cli-ops", "--workspace", "ephemeral");
    await untilPhase("cli-ops", "Ready");
  }, 90_000);

  it("exec passes the command's output and exit code through", async () => {
    const result = await run(["exec", "cli-ops", "-n", TEAM, "--", "sh", "-c", "echo out; echo err >&2; exit 3"]);
    expect(result).toEqual({ code: 3, stdout: "out\n", stderr: "err\n" });
  });

  it("checkpoint says how it went", async () => {
    const result = await run(["checkpoint", "cli-ops", "-n", TEAM]);
    expect([result.code, result.stdout]).toEqual([0, expect.stringMatching(/^checkpoint of sandbox\/cli-ops: Succeeded/)]);
  });

  it("stop, then start, bring it back to Ready", async () => {
    expect((await run(["stop", "cli-ops", "-n", TEAM])).stdout).toMatch(/^sandbox\/cli-ops stopping/);
    await untilPhase("cli-ops", "Stopped");
    expect((await run(["start", "cli-ops", "-n", TEAM])).code).toBe(0);
    await untilPhase("cli-ops", "Ready");
  }, 90_000);
});

describe("get -w", () => {
  it("prints a disruption as it happens, and carries on after the stream drops", async () => {
    await createQuick("cli-watched", "--workspace", "ephemeral");
    const ready = await untilPhase("cli-watched", "Ready");
    const watching = follow(["get", "sandbox", "cli-watched", "-n", TEAM, "-w"], asDeveloper);
    await watching.untilLine(/^cli-watched\s+Ready/);
    await admin.simulatorPodAction({ params: { namespace: TEAM, name: ready.podName!, action: "delete" } });
    await watching.untilLine(/^cli-watched\s+(Disrupted|Recovering)\s+/);
    server.dropConnections();
    await watching.untilLine(/resuming/, { stream: "stderr" });
    // The replacement comes once the deleted pod's grace period is over: a change after the drop.
    const recovered = await watching.untilLine(/^cli-watched\s+Ready\s+.*PodDeleted/);
    await watching.stop();
    expect(recovered).toMatch(/\s+worker-\d+\s+/);
  }, 120_000);
});

describe("describe after a drain", () => {
  it("shows the disruption, the recovery and the durable-state verdict", async () => {
    await createQuick("cli-drained", "--storage-class", "portable", "--ownership", "delete");
    const before = await untilPhase("cli-drained", "Ready");
    const drain = await admin.startMaintenance({ params: { name: before.nodeName! }, body: {} });
    await eventually(async () => {
      const state = (await admin.getMaintenance({ params: { id: drain.id } })).state;
      if (state === "Running") throw new Error("the drain is still running");
    }, { timeoutMs: 90_000 });
    await admin.simulatorNodeAction({ params: { name: before.nodeName!, action: "uncordon" } });
    await eventually(async () => {
      const sandbox = await sandboxNamed("cli-drained");
      if (!sandbox?.details.durableState) throw new Error("no verdict yet");
    }, { timeoutMs: 60_000 });
    const described = (await run(["describe", "sandbox", "cli-drained", "-n", TEAM])).stdout;
    expect(described).toMatch(/Last Disruption:\n  Reason:\s+NodeDrained\n[\s\S]*  Recovery:\s+Recovered\n[\s\S]*Durable State:\n  Verdict:\s+restored/);
  }, 180_000);
});

describe("timeline", () => {
  it("draws the pods as lanes and lists the events, then follows new ones", async () => {
    await createQuick("cli-timeline", "--workspace", "ephemeral");
    await untilPhase("cli-timeline", "Ready");
    const following = follow(["timeline", "cli-timeline", "-n", TEAM, "--follow"], asDeveloper);
    await following.untilLine(/^worker-\d+ [0-9a-f]{8} │/);
    await following.untilLine(/\bLifecycle\s+Ready\b/);
    await run(["checkpoint", "cli-timeline", "-n", TEAM]);
    const followed = await following.untilLine(/\bCheckpoint\s+CheckpointSucceeded\b/);
    await following.stop();
    expect(followed).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe("drain", () => {
  /** A platform admin: maintenance is theirs. */
  const asAdmin = () => ({ ...asDeveloper, BERTH_TOKEN: tokens.admin });

  it("previews what a drain would do to each pod, and why", async () => {
    await createQuick("cli-previewed", "--storage-class", "portable", "--ownership", "delete");
    const { nodeName } = await untilPhase("cli-previewed", "Ready");
    const preview = await run(["drain", nodeName!, "--preview"], asAdmin());
    expect(preview.stdout.split("\n").find((line) => line.includes("cli-previewed"))).toMatch(/^team-a\s+cli-previewed\s+cli-previewed\s+moves\s+/);
  });

  it("runs the maintenance, printing each sandbox's steps, and exits 0 when it succeeds", async () => {
    // The CLI prints each step it sees: a checkpoint that takes a second is one it cannot miss on a busy machine.
    const slowCheckpoint = { terminationGracePeriodSeconds: 3, checkpointGracePeriodSeconds: 2, checkpointHook: ["sh", "-c", "sleep 1"] };
    await createFromFile({ name: "cli-moved", namespace: TEAM, disruptionPolicy: slowCheckpoint }, "--storage-class", "portable", "--ownership", "delete");
    const { nodeName } = await untilPhase("cli-moved", "Ready");
    const drained = await run(["drain", nodeName!], asAdmin());
    await admin.simulatorNodeAction({ params: { name: nodeName!, action: "uncordon" } });
    expect([drained.code, drained.stdout.match(/^team-a\/cli-moved\t(\w+)/gm), drained.stdout.split("\n").at(-2)]).toEqual([
      0,
      expect.arrayContaining(["team-a/cli-moved\tCheckpointing", "team-a/cli-moved\tReplaced"]),
      expect.stringMatching(/^Maintenance Succeeded/),
    ]);
  }, 120_000);

  it("asks on Ctrl-C whether to cancel the run, cancels it when told to, and exits 1", async () => {
    await createFromFile({ name: "cli-cancelled", namespace: TEAM, disruptionPolicy: { terminationGracePeriodSeconds: 1, checkpointHook: ["sh", "-c", "sleep 20"] } }, "--storage-class", "portable", "--ownership", "delete");
    const { nodeName } = await untilPhase("cli-cancelled", "Ready");
    const draining = follow(["drain", nodeName!], asAdmin());
    await draining.untilLine(/^team-a\/cli-cancelled\tCheckpointing/);
    draining.interrupt();
    await draining.untilLine(/Cancel the maintenance run\?/, { stream: "stderr" });
    draining.type("y");
    const result = await draining.ended();
    await admin.simulatorNodeAction({ params: { name: nodeName!, action: "uncordon" } });
    expect([result.code, result.stdout.split("\n").at(-2)]).toEqual([1, expect.stringMatching(/^Maintenance Cancelled/)]);
  }, 120_000);
});

describe("volumes", () => {
  it("picks a sandbox's claims by their labels with -l", async () => {
    await createQuick("cli-picked", "--storage-class", "portable", "--ownership", "delete", "--size", "1Gi");
    const picked = await eventually(async () => {
      const listed = await run(["get", "volumes", "-n", TEAM, "-l", "berth.dev/sandbox-name=cli-picked", "-o", "name"]);
      if (listed.stdout === "") throw new Error("the claim is not listed yet");
      return listed.stdout;
    }, { timeoutMs: 30_000 });
    await run(["delete", "sandbox", "cli-picked", "-n", TEAM]);
    expect(picked).toBe("volume/workspace-cli-picked\n");
  }, 60_000);

  it("grows a claim, then deletes it once its sandbox is gone", async () => {
    await createQuick("cli-claim", "--storage-class", "portable", "--ownership", "retain", "--size", "1Gi");
    await untilPhase("cli-claim", "Ready");
    const expanded = await run(["volumes", "expand", "workspace-cli-claim", "-n", TEAM, "--size", "2Gi"]);
    await run(["delete", "sandbox", "cli-claim", "-n", TEAM]);
    const deleted = await eventually(async () => {
      const attempt = await run(["volumes", "delete", "workspace-cli-claim", "-n", TEAM]);
      if (attempt.code !== 0) throw new Error(attempt.stderr);
      return attempt;
    }, { timeoutMs: 30_000 });
    expect([expanded.stdout, deleted.stdout]).toEqual([expect.stringContaining("to 2Gi requested"), "volume/workspace-cli-claim deleted from team-a\n"]);
  }, 90_000);
});

describe("berth top", () => {
  it("shows the sandboxes live on a terminal; / filters them, Enter opens one, c checkpoints it, Escape goes back, q quits", async () => {
    await createQuick("cli-top", "--workspace", "ephemeral");
    const { podName } = await untilPhase("cli-top", "Ready");
    const top = follow(["top", "-n", TEAM], asDeveloper, { terminal: true });
    await top.untilLine(/cli-top\s+Ready\s/);
    // Other tests' sandboxes share the namespace: narrow the list to ours by name, then open it.
    top.press("/");
    await top.untilLine(/type part of a name/);
    top.press("cli-top");
    await top.untilLine(/\/cli-top▏/);
    top.press("\r");
    await top.untilLine(/\/cli-top — 1 shown/);
    top.press("\r");
    await top.untilLine(/team-a\/cli-top — Ready/);
    top.press("c");
    await top.untilLine(/Checkpoint of cli-top: Succeeded/);
    top.press("\u001b");
    await admin.simulatorPodAction({ params: { namespace: TEAM, name: podName!, action: "delete" } });
    await top.untilLine(/cli-top\s+(Disrupted|Recovering)\s/);
    top.press("q");
    expect((await top.ended()).code).toBe(0);
  }, 60_000);

  it("refuses to run without a terminal, and says what to use instead", async () => {
    const result = await run(["top"]);
    expect([result.code, result.stderr]).toEqual([2, expect.stringContaining("berth get sandboxes -w")]);
  });
});

describe("shell completion", () => {
  const bash = promisify(execFile);
  const complete = async (words: string[]) => {
    const bin = mkdtempSync(path.join(work, "bin-"));
    symlinkSync(path.resolve(import.meta.dirname, "../../bin/berth.mjs"), path.join(bin, "berth"));
    const script = `source <(berth completion bash) && complete -p berth >/dev/null && COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}) && COMP_CWORD=${words.length - 1} && _berth && printf '%s\\n' "\${COMPREPLY[@]}"`;
    const { stdout } = await bash("bash", ["-c", script], { env: { ...process.env, ...asDeveloper, PATH: `${bin}:${path.dirname(process.execPath)}:${process.env.PATH}` } });
    return stdout.split("\n").filter(Boolean);
  };

  it("loads in bash and completes a command", async () => {
    expect(await complete(["berth", "descr"])).toEqual(["describe"]);
  });

  it("completes an option's choices", async () => {
    expect(await complete(["berth", "get", "sandboxes", "-o", "y"])).toEqual(["yaml"]);
  });

  it("completes the names of the sandboxes the person may see", async () => {
    await run(["create", "sandbox", "cli-completed", "-n", TEAM, "--workspace", "ephemeral"]);
    expect(await complete(["berth", "describe", "sandbox", "cli-comp"])).toEqual(["cli-completed"]);
  });
});
