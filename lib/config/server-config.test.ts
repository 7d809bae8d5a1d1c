import { describe, expect, it } from "vitest";
import { ConfigError, loadServerConfig, type ConfigInputs } from "./server-config.ts";
import { environmentVariableFor, GATEWAY_KEYS, helmValueFor, type GatewayKey } from "./gateway-keys.ts";

function inputs(env: Record<string, string | undefined> = {}, files: Record<string, string> = {}): ConfigInputs {
  return {
    env,
    cwd: "/srv/berth",
    readFile: (file) => {
      const text = files[file];
      if (text === undefined) throw new Error(`ENOENT: ${file}`);
      return text;
    },
    fileExists: (file) => file in files,
  };
}

const SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

/** What a real cluster's Berth must be told about sign-in (the embedded default needs none of it). */
const SIGN_IN = { BERTH_PUBLIC_URL: "https://berth.example.com", BERTH_SESSION_SECRET: "s".repeat(32), BERTH_OIDC_ISSUER: "https://id.example.com" };

/** A start-up problem read back as its parts: `<key> = <value>: <what is wrong>. Allowed: <what is allowed>.` */
function partsOf(problem: string | undefined): Record<string, string> {
  const match = /^(?<key>.+?) = (?<value>.+?): (?<wrong>.+)\. Allowed: (?<allowed>.+)\.$/.exec(problem ?? "");
  return match?.groups ?? { unreadable: String(problem) };
}

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("gateway defaults", () => {
  it("are the built-in ones when nothing is configured", () => {
    const config = loadServerConfig(inputs());
    expect(config.gateway).toEqual({
      workspaceBackend: "pvc",
      workspaceDefaultStorageSize: "2Gi",
      workspaceMountPath: "/sandbox",
      sandboxNamespace: "default",
      labelPrefix: "berth.dev",
    });
    expect(Object.values(config.sources).every((source) => source === "default")).toBe(true);
  });

  it("leave the storage class unset, meaning the cluster's default class", () => {
    expect(loadServerConfig(inputs()).gateway).not.toHaveProperty("workspaceStorageClass");
  });

  it("take an empty storage class from the environment as 'no class'", () => {
    const config = loadServerConfig(inputs({ BERTH_WORKSPACE_STORAGE_CLASS: "" }));
    expect(config.gateway.workspaceStorageClass).toBe("");
  });

  it("come from environment variables named after their keys", () => {
    const config = loadServerConfig(
      inputs({ BERTH_WORKSPACE_BACKEND: "ephemeral", BERTH_WORKSPACE_DEFAULT_STORAGE_SIZE: "5Gi", BERTH_SANDBOX_NAMESPACE: "agents" }),
    );
    expect(config.gateway).toMatchObject({ workspaceBackend: "ephemeral", workspaceDefaultStorageSize: "5Gi", sandboxNamespace: "agents" });
    expect(config.sources.workspaceBackend).toBe("environment");
  });

  it("come from a config file shaped like the Helm values", () => {
    const config = loadServerConfig(
      inputs({ BERTH_CONFIG_FILE: "berth.yaml" }, { "/srv/berth/berth.yaml": "server:\n  workspaceStorageClass: fast-ssd\n" }),
    );
    expect(config.gateway.workspaceStorageClass).toBe("fast-ssd");
    expect(config.sources.workspaceStorageClass).toBe("file");
  });

  it("prefer the environment over the config file", () => {
    const config = loadServerConfig(
      inputs(
        { BERTH_CONFIG_FILE: "/etc/berth.json", BERTH_WORKSPACE_BACKEND: "pvc" },
        { "/etc/berth.json": JSON.stringify({ server: { workspaceBackend: "ephemeral" } }) },
      ),
    );
    expect(config.gateway.workspaceBackend).toBe("pvc");
  });

  it("map each key to its environment variable and Helm value", () => {
    expect(environmentVariableFor("workspaceDefaultStorageSize")).toBe("BERTH_WORKSPACE_DEFAULT_STORAGE_SIZE");
    expect(helmValueFor("workspaceBackend")).toBe("server.workspaceBackend");
  });
});

describe("an invalid configuration", () => {
  it("names the variable, the value and what is allowed", () => {
    const [problem] = problemsOf(() => loadServerConfig(inputs({ BERTH_WORKSPACE_BACKEND: "nfs" })));
    expect(problem).toBe('BERTH_WORKSPACE_BACKEND = "nfs": workspace backend must be one of: pvc, ephemeral. Allowed: pvc or ephemeral.');
  });

  // Typed by GatewayKey so a new key cannot be added without saying here what a person is told
  // is allowed for it. The allowed text is written out, not read from the code, so a message
  // that stops saying it fails.
  const invalid: Record<GatewayKey, { value: string; allowed: string }> = {
    workspaceBackend: { value: "nfs", allowed: "pvc or ephemeral" },
    workspaceDefaultStorageSize: { value: "lots", allowed: "a positive Kubernetes quantity such as 2Gi" },
    workspaceStorageClass: { value: "Fast_SSD", allowed: "a StorageClass name, or an empty string for no class (leave unset for the cluster default)" },
    workspaceMountPath: { value: "sandbox", allowed: "an absolute path such as /sandbox, other than / and outside /mnt/berth-workspace" },
    sandboxNamespace: { value: "Agents", allowed: "a DNS-1123 label such as default or agents" },
    labelPrefix: { value: "berth_dev", allowed: "a DNS subdomain such as berth.dev" },
  };
  const everyKey = GATEWAY_KEYS.map((key) => ({ key, variable: environmentVariableFor(key), helmValue: helmValueFor(key), ...invalid[key] }));

  it.each(everyKey)("names $variable, the value $value and what is allowed when the environment sets it", ({ variable, value, allowed }) => {
    const problems = problemsOf(() => loadServerConfig(inputs({ [variable]: value })));
    expect(problems).toHaveLength(1);
    expect(partsOf(problems[0])).toEqual({ key: variable, value: JSON.stringify(value), wrong: expect.any(String), allowed });
  });

  it.each(everyKey)("names $helmValue in the config file, the value $value and what is allowed when the file sets it", ({ helmValue, key, value, allowed }) => {
    const file = `server:\n  ${key}: ${JSON.stringify(value)}\n`;
    const problems = problemsOf(() => loadServerConfig(inputs({ BERTH_CONFIG_FILE: "/etc/berth.yaml" }, { "/etc/berth.yaml": file })));
    expect(problems).toHaveLength(1);
    expect(partsOf(problems[0])).toEqual({ key: `${helmValue} in /etc/berth.yaml`, value: JSON.stringify(value), wrong: expect.any(String), allowed });
  });

  it.each(everyKey)("names $helmValue, the value and what is allowed when the file gives it a number instead of a string", ({ helmValue, key, allowed }) => {
    const problems = problemsOf(() => loadServerConfig(inputs({ BERTH_CONFIG_FILE: "/etc/berth.yaml" }, { "/etc/berth.yaml": `server:\n  ${key}: 7\n` })));
    expect(partsOf(problems[0])).toEqual({ key: `${helmValue} in /etc/berth.yaml`, value: "7", wrong: expect.any(String), allowed });
  });

  it("says a storage class the file gives as a number must be a string, not only that it is invalid", () => {
    const [problem] = problemsOf(() => loadServerConfig(inputs({ BERTH_CONFIG_FILE: "/etc/berth.yaml" }, { "/etc/berth.yaml": "server:\n  workspaceStorageClass: 7\n" })));
    expect(partsOf(problem).wrong).toContain("workspaceStorageClass must be a string");
  });

  it("lists every invalid gateway key at once, from the environment and the file alike", () => {
    const [fromFile, ...fromEnvironment] = everyKey;
    const problems = problemsOf(() =>
      loadServerConfig(
        inputs(
          { BERTH_CONFIG_FILE: "/etc/berth.yaml", ...Object.fromEntries(fromEnvironment.map(({ variable, value }) => [variable, value])) },
          { "/etc/berth.yaml": `server:\n  ${fromFile!.key}: ${JSON.stringify(fromFile!.value)}\n` },
        ),
      ),
    );
    expect(problems.map((problem) => partsOf(problem).key)).toEqual([`${fromFile!.helmValue} in /etc/berth.yaml`, ...fromEnvironment.map(({ variable }) => variable)]);
  });

  it("names the Helm key and the file when the bad value came from the file", () => {
    const [problem] = problemsOf(() =>
      loadServerConfig(inputs({ BERTH_CONFIG_FILE: "/etc/b.yaml" }, { "/etc/b.yaml": "server:\n  workspaceDefaultStorageSize: lots\n" })),
    );
    expect(problem).toMatch(/^server\.workspaceDefaultStorageSize in \/etc\/b\.yaml = "lots": .*Kubernetes quantity/);
  });

  it("reports every problem at once", () => {
    const problems = problemsOf(() =>
      loadServerConfig(inputs({ BERTH_WORKSPACE_MOUNT_PATH: "sandbox", BERTH_SANDBOX_NAMESPACE: "Agents", BERTH_CLUSTER: "minikube" })),
    );
    expect(problems).toHaveLength(3);
  });

  it("rejects an unknown key in the config file, listing the allowed ones", () => {
    const [problem] = problemsOf(() =>
      loadServerConfig(inputs({ BERTH_CONFIG_FILE: "/etc/b.yaml" }, { "/etc/b.yaml": "server:\n  workspaceSize: 1Gi\n" })),
    );
    expect(problem).toContain("server.workspaceBackend");
  });

  it("rejects a config file that is not YAML", () => {
    const [problem] = problemsOf(() => loadServerConfig(inputs({ BERTH_CONFIG_FILE: "/etc/b.yaml" }, { "/etc/b.yaml": "server: [unclosed" })));
    expect(problem).toContain("cannot be read as YAML or JSON");
  });

  it("rejects a config file that does not exist", () => {
    const [problem] = problemsOf(() => loadServerConfig(inputs({ BERTH_CONFIG_FILE: "/etc/missing.yaml" })));
    expect(problem).toContain("no such file");
  });

  it("rejects a DATABASE_URL that is not PostgreSQL, without printing its password", () => {
    const [problem] = problemsOf(() => loadServerConfig(inputs({ DATABASE_URL: "mysql://root:hunter2@db/berth" })));
    expect(problem).not.toContain("hunter2");
  });
});

describe("the store location", () => {
  it("is the embedded store in ./.berth by default", () => {
    expect(loadServerConfig(inputs()).store).toEqual({ kind: "pglite", dataDir: "/srv/berth/.berth" });
  });

  it("follows BERTH_DATA_DIR", () => {
    expect(loadServerConfig(inputs({ BERTH_DATA_DIR: "/var/lib/berth" })).store).toEqual({ kind: "pglite", dataDir: "/var/lib/berth" });
  });

  it("is PostgreSQL when DATABASE_URL is a postgres URL", () => {
    const url = "postgresql://berth:secret@db:5432/berth";
    expect(loadServerConfig(inputs({ DATABASE_URL: url })).store).toEqual({ kind: "postgresql", databaseUrl: url });
  });
});

describe("leader election", () => {
  const postgres = { DATABASE_URL: "postgresql://berth:secret@db:5432/berth" };

  it("is not needed with the embedded store, which one process alone opens", () => {
    expect(loadServerConfig(inputs()).leaderElection).toBeNull();
  });

  it("is on a Lease named berth-leader in the pod's own namespace with PostgreSQL", () => {
    expect(loadServerConfig(inputs({ ...postgres, POD_NAMESPACE: "berth-system" })).leaderElection).toMatchObject({ namespace: "berth-system", leaseName: "berth-leader" });
  });

  it("is in Berth's namespace of the embedded cluster when Berth runs on that", () => {
    expect(loadServerConfig(inputs(postgres)).leaderElection?.namespace).toBe("berth-system");
  });

  it("takes the namespace of the pod's service account when POD_NAMESPACE is unset", () => {
    const config = loadServerConfig(inputs({ ...postgres, ...SIGN_IN, KUBECONFIG: "/k" }, { "/k": "", "/var/run/secrets/kubernetes.io/serviceaccount/namespace": "platform\n" }));
    expect(config.leaderElection?.namespace).toBe("platform");
  });

  it("is where BERTH_LEADER_ELECTION_NAMESPACE and BERTH_LEADER_ELECTION_LEASE say", () => {
    const config = loadServerConfig(inputs({ ...postgres, POD_NAMESPACE: "berth-system", BERTH_LEADER_ELECTION_NAMESPACE: "ops", BERTH_LEADER_ELECTION_LEASE: "berth-prod" }));
    expect(config.leaderElection).toMatchObject({ namespace: "ops", leaseName: "berth-prod" });
  });

  it("times the Lease as client-go does unless told otherwise", () => {
    const timings = (env: Record<string, string>) => {
      const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = loadServerConfig(inputs({ ...postgres, ...env })).leaderElection!;
      return { leaseDurationMs, renewDeadlineMs, retryPeriodMs };
    };
    expect([timings({}), timings({ BERTH_LEADER_ELECTION_LEASE_DURATION_SECONDS: "4", BERTH_LEADER_ELECTION_RENEW_DEADLINE_SECONDS: "3", BERTH_LEADER_ELECTION_RETRY_PERIOD_SECONDS: "0.5" })]).toEqual([
      { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
      { leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 500 },
    ]);
  });

  it("refuses a renew deadline that would let a leader act after its lease ran out", () => {
    const problems = problemsOf(() => loadServerConfig(inputs({ ...postgres, BERTH_LEADER_ELECTION_LEASE_DURATION_SECONDS: "5", BERTH_LEADER_ELECTION_RENEW_DEADLINE_SECONDS: "6" })));
    expect(partsOf(problems[0])).toMatchObject({ key: "BERTH_LEADER_ELECTION_RENEW_DEADLINE_SECONDS", value: '"6"' });
  });

  it("refuses a lease name Kubernetes would, saying what is allowed", () => {
    expect(partsOf(problemsOf(() => loadServerConfig(inputs({ ...postgres, BERTH_LEADER_ELECTION_LEASE: "Berth_Leader" })))[0])).toMatchObject({ key: "BERTH_LEADER_ELECTION_LEASE", value: '"Berth_Leader"' });
  });
});

describe("the cluster mode", () => {
  it("is embedded when no cluster is configured", () => {
    expect(loadServerConfig(inputs()).cluster.mode).toBe("embedded");
  });

  it("is kubeconfig when KUBECONFIG is set", () => {
    expect(loadServerConfig(inputs({ ...SIGN_IN, KUBECONFIG: "/home/me/.kube/config" }, { "/home/me/.kube/config": "" })).cluster).toEqual({ mode: "kubeconfig", kubeconfig: "/home/me/.kube/config" });
  });

  it("is in-cluster inside a pod with a service account", () => {
    const config = loadServerConfig(
      inputs({ ...SIGN_IN, KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" }, { [SERVICE_ACCOUNT_TOKEN]: "t" }),
    );
    expect(config.cluster.mode).toBe("in-cluster");
  });

  it("is what BERTH_CLUSTER says, even when a cluster is configured", () => {
    expect(loadServerConfig(inputs({ BERTH_CLUSTER: "embedded", KUBECONFIG: "/k" })).cluster.mode).toBe("embedded");
  });

  it("reads ~/.kube/config for BERTH_CLUSTER=kubeconfig without KUBECONFIG", () => {
    expect(loadServerConfig(inputs({ ...SIGN_IN, BERTH_CLUSTER: "kubeconfig", HOME: "/home/me" }, { "/home/me/.kube/config": "" })).cluster.kubeconfig).toBe("/home/me/.kube/config");
  });
});

describe("a cluster mode that cannot work", () => {
  it("refuses in-cluster outside a pod, naming what is missing", () => {
    expect(partsOf(problemsOf(() => loadServerConfig(inputs({ ...SIGN_IN, BERTH_CLUSTER: "in-cluster" })))[0])).toMatchObject({
      key: "BERTH_CLUSTER",
      wrong: expect.stringContaining(`KUBERNETES_SERVICE_HOST is not set; KUBERNETES_SERVICE_PORT is not set; there is no service account token at ${SERVICE_ACCOUNT_TOKEN}`),
    });
  });

  it("refuses in-cluster in a pod whose service account token is not mounted", () => {
    const problems = problemsOf(() => loadServerConfig(inputs({ ...SIGN_IN, BERTH_CLUSTER: "in-cluster", KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" })));
    expect(partsOf(problems[0]).wrong).toBe(`this is not a pod with a service account (there is no service account token at ${SERVICE_ACCOUNT_TOKEN})`);
  });

  it("refuses kubeconfig with no KUBECONFIG and no ~/.kube/config, rather than trying localhost:8080", () => {
    expect(partsOf(problemsOf(() => loadServerConfig(inputs({ ...SIGN_IN, BERTH_CLUSTER: "kubeconfig", HOME: "/home/me" })))[0])).toMatchObject({
      key: "BERTH_CLUSTER",
      wrong: "there is no kubeconfig to read (KUBECONFIG is not set, and /home/me/.kube/config does not exist)",
    });
  });

  it("refuses a KUBECONFIG that names no file", () => {
    expect(partsOf(problemsOf(() => loadServerConfig(inputs({ ...SIGN_IN, KUBECONFIG: "/nowhere/config" })))[0])).toMatchObject({ key: "KUBECONFIG", value: '"/nowhere/config"', wrong: "no such file" });
  });
});

describe("the simulated cluster's settings", () => {
  it("default to three workers on real time with local-path as the default class", () => {
    expect(loadServerConfig(inputs()).simulator).toEqual({ port: 0, clockScale: 1, workers: 3, defaultStorageClass: "local-path", withdrawnVersions: [] });
  });

  it("take the agent-sandbox group versions the cluster should not serve", () => {
    expect(loadServerConfig(inputs({ BERTH_SIM_WITHDRAWN_VERSIONS: "agents.x-k8s.io/v1alpha1, extensions.agents.x-k8s.io/v1alpha1" })).simulator.withdrawnVersions).toEqual([
      "agents.x-k8s.io/v1alpha1",
      "extensions.agents.x-k8s.io/v1alpha1",
    ]);
  });

  it("refuse a withdrawn version that is not agent-sandbox's, naming what is allowed", () => {
    const [problem] = problemsOf(() => loadServerConfig(inputs({ BERTH_SIM_WITHDRAWN_VERSIONS: "apps/v1" })));
    expect(problem).toMatch(/^BERTH_SIM_WITHDRAWN_VERSIONS = "apps\/v1": .*Allowed: a comma-separated list of agents\.x-k8s\.io\/v1alpha1/);
  });

  it("take 'none' as a cluster without a default StorageClass", () => {
    expect(loadServerConfig(inputs({ BERTH_SIM_DEFAULT_STORAGE_CLASS: "none" })).simulator.defaultStorageClass).toBeNull();
  });

  it("refuse a clock scale that is not positive, naming the variable", () => {
    const [problem] = problemsOf(() => loadServerConfig(inputs({ BERTH_SIM_CLOCK_SCALE: "0" })));
    expect(problem).toMatch(/^BERTH_SIM_CLOCK_SCALE = "0": /);
  });
});

describe("limits", () => {
  it("are the built-in ones when nothing is configured", () => {
    expect(loadServerConfig(inputs()).limits).toEqual({
      maxCpu: "16",
      maxMemory: "64Gi",
      maxClaimSize: "1Ti",
      maxGracePeriodSeconds: 3600,
      maxSandboxesPerNamespace: 100,
      maxBodyBytes: 1048576,
      createsPerMinute: 30,
      commandsPerMinute: 120,
      writesPerMinute: 300,
      signInsPerMinute: 30,
      streamsPerPerson: 10,
    });
  });

  it("come from the config file's limits section", () => {
    const config = loadServerConfig(inputs({ BERTH_CONFIG_FILE: "berth.yaml" }, { "/srv/berth/berth.yaml": "limits:\n  maxMemory: 8Gi\n  maxSandboxesPerNamespace: 5\n" }));
    expect(config.limits).toMatchObject({ maxMemory: "8Gi", maxSandboxesPerNamespace: 5 });
  });

  it("take the environment over the file", () => {
    const config = loadServerConfig(inputs({ BERTH_CONFIG_FILE: "berth.yaml", BERTH_MAX_MEMORY: "4Gi" }, { "/srv/berth/berth.yaml": "limits:\n  maxMemory: 8Gi\n" }));
    expect(config.limits.maxMemory).toBe("4Gi");
  });

  it("refuse a value that is not one, naming the variable", () => {
    expect(problemsOf(() => loadServerConfig(inputs({ BERTH_MAX_BODY_BYTES: "lots" })))).toEqual([expect.stringMatching(/^BERTH_MAX_BODY_BYTES = "lots": /)]);
  });

  it("refuse an unknown key in the file's limits section, listing the allowed ones", () => {
    const problems = problemsOf(() => loadServerConfig(inputs({ BERTH_CONFIG_FILE: "berth.yaml" }, { "/srv/berth/berth.yaml": "limits:\n  maxGpus: 2\n" })));
    expect(problems).toEqual([expect.stringContaining("allowed keys: limits.maxCpu, limits.maxMemory")]);
  });
});
