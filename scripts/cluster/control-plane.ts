// A real Kubernetes control plane on this machine, for `npm run test:cluster`: etcd,
// kube-apiserver, kube-controller-manager and kube-scheduler as released, kwok standing in for
// the kubelets of two worker nodes, and the agent-sandbox controller with its CRD. Everything
// listens on 127.0.0.1 only (the machine has no default route) and lives in one temporary
// directory; stop() ends every process it started and removes the directory.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseAllDocuments, stringify } from "yaml";
import { clusterFixtures } from "./cluster-fixtures.ts";
import { moduleDirectory, pinnedVersion } from "./pinned-modules.ts";

export interface ControlPlane {
  /** A kubeconfig with cluster-admin rights (group system:masters). */
  kubeconfigPath: string;
  /** The API server's audit log (JSON lines) of the requests `auditedUsers` made. */
  auditLogPath: string;
  server: string;
  /** Runs the control plane's own kubectl with the admin kubeconfig; throws with its output on failure. */
  kubectl(args: string[], input?: string): string;
  /** The same, as kwok (which the admission policy on its pod deletes names). */
  kubectlAsKwok(args: string[], input?: string): string;
  /** Every process started, for the check that none outlives stop(). */
  pids(): number[];
  /** Where each component's log is, for a failure report. */
  logDir: string;
  stop(): Promise<void>;
}

export interface ControlPlaneOptions {
  /** The directory build-control-plane.sh printed: bin/ and share/. */
  toolsDir: string;
  /** Keep the working directory (etcd data, logs) after stop(), for a post-mortem. */
  keep?: boolean;
  /** Users whose every request the API server writes to its audit log. */
  auditedUsers?: string[];
  /**
   * The agent-sandbox release whose CRDs and controller run: the one Berth follows
   * (AGENT_SANDBOX_VERSION, the default) or the oldest it supports (AGENT_SANDBOX_PREVIOUS_VERSION).
   */
  agentSandboxVersion?: string;
  log?: (line: string) => void;
}

/**
 * The apiserver ends each watch after a random time between this and twice this: short, so that
 * every client — Berth's watches among them — resumes its watches many times during the suite.
 */
const WATCH_TIMEOUT_SECONDS = 15;

/** kwok's own identity, so the admission policy for its deletes can name it. */
const KWOK_USER = "berth-kwok";

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const log = options.log ?? ((line: string) => console.error(`control-plane: ${line}`));
  const bin = (name: string) => path.join(options.toolsDir, "bin", name);
  const dir = mkdtempSync(path.join(tmpdir(), "berth-cluster-"));
  const logDir = path.join(dir, "logs");
  mkdirSync(logDir);
  const children: { name: string; child: ChildProcess }[] = [];
  let stopping = false;

  const start = (name: string, args: string[]) => {
    // Straight to a file, not through a pipe: the caller blocks in spawnSync while a suite runs,
    // and a pipe nobody drains would stall the control plane once it filled.
    const output = openSync(path.join(logDir, `${name}.log`), "a");
    const child = spawn(bin(name), args, { stdio: ["ignore", output, output], cwd: dir });
    closeSync(output);
    child.on("exit", (code, signal) => {
      if (!stopping) log(`${name} exited unexpectedly (${signal ?? `code ${code}`}); its log: ${path.join(logDir, `${name}.log`)}`);
    });
    children.push({ name, child });
    return child;
  };

  const stop = async () => {
    stopping = true;
    // Reverse order: clients first, etcd last, so nothing logs a storm of connection errors.
    for (const { child } of [...children].reverse()) await ended(child, 10_000);
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  };

  try {
    const [etcdClientPort, etcdPeerPort, apiPort] = await freePorts(3);
    const server = `https://127.0.0.1:${apiPort}`;
    const token = randomBytes(24).toString("hex");
    const pki = path.join(dir, "pki");
    mkdirSync(pki);
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    writeFileSync(path.join(pki, "service-account.key"), privateKey.export({ type: "pkcs1", format: "pem" }));
    writeFileSync(path.join(pki, "service-account.pub"), publicKey.export({ type: "spki", format: "pem" }));
    // One static token for the admin and the control plane's own components (one kubeconfig),
    // and one for kwok, which the admission policy below names: the suite under test gets its own
    // identity (a service account's token) where RBAC is the point.
    const kwokToken = randomBytes(24).toString("hex");
    writeFileSync(path.join(pki, "tokens.csv"), `${token},berth-admin,berth-admin,"system:masters"\n${kwokToken},${KWOK_USER},${KWOK_USER},"system:masters"\n`);
    const kubeconfigPath = path.join(dir, "admin.kubeconfig");
    writeFileSync(kubeconfigPath, kubeconfig(server, token, "berth-admin"));
    const kwokKubeconfigPath = path.join(dir, "kwok.kubeconfig");
    writeFileSync(kwokKubeconfigPath, kubeconfig(server, kwokToken, KWOK_USER));
    const auditLogPath = path.join(logDir, "audit.log");
    const auditPolicyPath = path.join(dir, "audit-policy.yaml");
    writeFileSync(auditPolicyPath, stringify({
      apiVersion: "audit.k8s.io/v1",
      kind: "Policy",
      omitStages: ["RequestReceived"],
      rules: [
        ...(options.auditedUsers?.length ? [{ level: "Metadata", users: options.auditedUsers }] : []),
        // Who made, evicted or removed a pod, whoever asked (the user agent tells the components
        // apart): what a disruption test that went wrong needs first.
        { level: "Metadata", verbs: ["create", "delete", "deletecollection"], resources: [{ group: "", resources: ["pods", "pods/eviction"] }] },
        { level: "None" },
      ],
    }));

    log(`starting etcd on 127.0.0.1:${etcdClientPort}`);
    start("etcd", [
      "--name=berth", `--data-dir=${path.join(dir, "etcd")}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClientPort}`, `--advertise-client-urls=http://127.0.0.1:${etcdClientPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`, `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-cluster=berth=http://127.0.0.1:${etcdPeerPort}`,
      "--unsafe-no-fsync", "--log-level=warn",
    ]);
    await waitFor("etcd", () => httpOk(`http://127.0.0.1:${etcdClientPort}/health`), 60_000);

    log(`starting kube-apiserver on ${server}`);
    start("kube-apiserver", [
      `--etcd-servers=http://127.0.0.1:${etcdClientPort}`,
      "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", `--secure-port=${apiPort}`,
      `--cert-dir=${pki}`,
      `--token-auth-file=${path.join(pki, "tokens.csv")}`,
      "--authorization-mode=RBAC",
      "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
      `--service-account-key-file=${path.join(pki, "service-account.pub")}`,
      `--service-account-signing-key-file=${path.join(pki, "service-account.key")}`,
      "--service-cluster-ip-range=10.96.0.0/16",
      `--min-request-timeout=${WATCH_TIMEOUT_SECONDS}`,
      `--audit-policy-file=${auditPolicyPath}`, `--audit-log-path=${auditLogPath}`, "--audit-log-format=json", "--audit-log-mode=blocking",
      "--allow-privileged=true", "--profiling=false",
    ]);
    await waitFor("kube-apiserver", () => httpsOk(`${server}/readyz`, token), 180_000);
    const kubectl = (args: string[], input?: string) => runKubectl(bin("kubectl"), kubeconfigPath, args, input);
    const kubectlAsKwok = (args: string[], input?: string) => runKubectl(bin("kubectl"), kwokKubeconfigPath, args, input);

    log("starting kube-controller-manager and kube-scheduler");
    start("kube-controller-manager", [
      `--kubeconfig=${kubeconfigPath}`, "--leader-elect=false", "--bind-address=127.0.0.1", "--secure-port=0",
      `--service-account-private-key-file=${path.join(pki, "service-account.key")}`,
      `--root-ca-file=${path.join(pki, "apiserver.crt")}`,
      "--use-service-account-credentials=false", "--profiling=false",
      // kwok renews its nodes' leases from the same 2 loaded cores; a late renewal past the
      // default 50 s marks a node NotReady and its pods Ready=False, and kwok (which readies only
      // Pending pods) never readies them again, leaving a sandbox Recovering for good. The suite
      // rehearses node loss on the embedded cluster only, so here a node is never given up on.
      "--node-monitor-grace-period=10m",
    ]);
    start("kube-scheduler", [`--kubeconfig=${kubeconfigPath}`, "--leader-elect=false", "--bind-address=127.0.0.1", "--secure-port=0", "--profiling=false"]);

    log("installing agent-sandbox's CRDs (its extensions' included) and the CSI snapshot CRDs, and starting kwok and the agent-sandbox controller");
    const agentSandbox = agentSandboxRelease(options.agentSandboxVersion);
    for (const file of ["agents.x-k8s.io_sandboxes.yaml", ...EXTENSION_CRD_FILES]) kubectl(["apply", "-f", "-"], sandboxCrdWithoutConversionWebhook(readFileSync(path.join(agentSandbox.crdDir, file), "utf8")));
    // As most clusters have them: snapshots are served, but no class here has a snapshot driver,
    // so Berth's "not supported" answers are what is checked.
    for (const file of SNAPSHOT_CRD_FILES) kubectl(["apply", "-f", path.join(snapshotCrdDir(), file)]);
    // Not `kubectl wait`: it fails instead of waiting while the new CRD has no conditions yet.
    const established = (crd: string) => kubectl(["get", `crd/${crd}`, "-o", "jsonpath={.status.conditions[?(@.type==\"Established\")].status}"]) === "True";
    await waitFor("agent-sandbox's CRDs", () => Promise.resolve(trying(() => {
      const pending = ["sandboxes.agents.x-k8s.io", ...EXTENSION_CRDS, ...SNAPSHOT_CRDS].filter((crd) => !established(crd));
      if (pending.length > 0) throw new Error(`not established: ${pending.join(", ")}`);
    })), 60_000);
    // Established is not served yet: a new resource's storage answers 429 ("storage is
    // (re)initializing") for a moment, and the suite would meet it on its first list.
    await waitFor("agent-sandbox's and the snapshot resources to be served", () => Promise.resolve(trying(() => {
      for (const crd of ["sandboxes.agents.x-k8s.io", ...EXTENSION_CRDS, ...SNAPSHOT_CRDS]) kubectl(["get", crd, "--all-namespaces", "-o", "name"]);
    })), 60_000);
    kubectl(["apply", "-f", "-"], kwokDeletesOnlyTerminatingPods().map((manifest) => `---\n${stringify(manifest)}`).join(""));
    const stages = path.join(dir, "kwok-stages.yaml");
    writeFileSync(stages, quickerStages(readFileSync(path.join(options.toolsDir, "share", "kwok-stages.yaml"), "utf8")));
    start("kwok", [
      `--kubeconfig=${kwokKubeconfigPath}`, `--config=${stages}`,
      `--manage-nodes-with-annotation-selector=${clusterFixtures.kwokNodeAnnotation}`,
      // Exec and logs go to the node's address; nothing listens there, so they fail at once.
      "--node-ip=127.0.0.1", "--node-port=1", "--cidr=10.244.0.0/16",
    ]);
    start(agentSandbox.controller, [
      `--kubeconfig=${kubeconfigPath}`, "--enable-webhook=false", "--manage-webhook-certs=false", "--leader-elect=false",
      "--metrics-bind-address=0", "--health-probe-bind-address=0",
      // The template, warm pool and claim controllers, as the release's extensions manifest runs it.
      "--extensions",
    ]);

    log("creating the worker nodes, storage classes and volumes");
    kubectl(["apply", "-f", "-"], clusterFixtures.manifests().map((manifest) => `---\n${stringify(manifest)}`).join(""));
    kubectl(["wait", "--for=condition=Ready", "--timeout=120s", "node", "--all"]);
    // Pods are refused until the service account controller has made the namespace's default one.
    await waitFor("the default service account", () => Promise.resolve(trying(() => kubectl(["get", "serviceaccount", "default", "-n", "default"]))), 60_000);
    log("ready");

    return { kubeconfigPath, auditLogPath, server, kubectl, kubectlAsKwok, pids: () => children.map(({ child }) => child.pid!).filter(Boolean), logDir, stop };
  } catch (error) {
    log(`failed to start; component logs in ${logDir}`);
    options.keep = true;
    await stop();
    throw error;
  }
}

/**
 * kwok (v0.8.0) deletes a pod at the end of its pod-delete stage by name, with no uid
 * precondition, and now and then plays that stage twice. agent-sandbox makes the replacement
 * under the same name within milliseconds of the first delete, so a late second delete removed
 * the replacement — with no DisruptionTarget and grace 0, as no real kubelet would — and kwok's
 * stages for that name could then leave the next pod never Ready. This policy lets kwok delete
 * only pods that are already being deleted, which is all a kubelet ever finishes.
 */
export function kwokDeletesOnlyTerminatingPods(): Record<string, unknown>[] {
  const name = "kwok-deletes-only-terminating-pods";
  return [
    {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicy",
      metadata: { name },
      spec: {
        failurePolicy: "Fail",
        matchConstraints: { resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["DELETE"], resources: ["pods"] }] },
        matchConditions: [{ name: "from-kwok", expression: `request.userInfo.username == "${KWOK_USER}"` }],
        validations: [{ expression: "has(oldObject.metadata.deletionTimestamp)", message: "kwok may only finish the deletion of a pod that is being deleted; this one (a replacement under the same name) is not" }],
      },
    },
    { apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingAdmissionPolicyBinding", metadata: { name }, spec: { policyName: name, validationActions: ["Deny"] } },
  ];
}

const EXTENSION_CRDS = ["sandboxtemplates", "sandboxclaims", "sandboxwarmpools"].map((plural) => `${plural}.extensions.agents.x-k8s.io`);
const EXTENSION_CRD_FILES = EXTENSION_CRDS.map((crd) => `extensions.agents.x-k8s.io_${crd.split(".")[0]}.yaml`);
const SNAPSHOT_CRDS = ["volumesnapshots", "volumesnapshotclasses", "volumesnapshotcontents"].map((plural) => `${plural}.snapshot.storage.k8s.io`);
const SNAPSHOT_CRD_FILES = SNAPSHOT_CRDS.map((crd) => `snapshot.storage.k8s.io_${crd.split(".")[0]}.yaml`);

/** The CSI snapshot CRDs as external-snapshotter publishes them, at the version the embedded cluster serves. */
function snapshotCrdDir(): string {
  const root = path.resolve(import.meta.dirname, "..", "..");
  return path.join(moduleDirectory("github.com/kubernetes-csi/external-snapshotter/client/v8", pinnedVersion("EXTERNAL_SNAPSHOTTER_VERSION"), root), "config", "crd");
}

/** An agent-sandbox release: its controller in the tools' bin/, its published CRDs in its module (the module proxy's copy). */
function agentSandboxRelease(version = pinnedVersion("AGENT_SANDBOX_VERSION")): { controller: string; crdDir: string } {
  const root = path.resolve(import.meta.dirname, "..", "..");
  const followed = version === pinnedVersion("AGENT_SANDBOX_VERSION");
  if (!followed && version !== pinnedVersion("AGENT_SANDBOX_PREVIOUS_VERSION")) throw new Error(`agent-sandbox ${version} is not built: versions.sh names the one followed and the oldest supported`);
  return {
    controller: followed ? "agent-sandbox-controller" : `agent-sandbox-controller-${version}`,
    crdDir: path.join(moduleDirectory("sigs.k8s.io/agent-sandbox", version, root), "k8s", "crds"),
  };
}

/**
 * agent-sandbox serves v1alpha1 beside v1beta1 through a conversion webhook, which needs the
 * controller's webhook server and certificates. Here both versions are served with
 * `conversion.strategy: None`: Berth speaks v1beta1, the storage version.
 */
export function sandboxCrdWithoutConversionWebhook(crdYaml: string): string {
  const documents = parseAllDocuments(crdYaml).map((document) => document.toJS() as Record<string, unknown> | null).filter((document) => document !== null);
  return documents.map((crd) => {
    const spec = crd.spec as Record<string, unknown>;
    return `---\n${stringify({ ...crd, spec: { ...spec, conversion: { strategy: "None" } } })}`;
  }).join("");
}

/**
 * kwok's published stages wait about a second, plus up to five of jitter, at every step of a
 * pod's life, to look like real nodes under load; a suite that starts dozens of pods does not
 * need the look. Each step of a pod's here takes 0.2 s. Deletion keeps its jitter up to the pod's
 * deletionTimestamp: that is the pod's grace period, which the suite is about.
 */
export function quickerStages(stagesYaml: string): string {
  type Stage = { spec?: { resourceRef?: { kind?: string }; delay?: Record<string, unknown> } };
  return parseAllDocuments(stagesYaml).map((document) => document.toJS() as Stage | null).filter((stage) => stage !== null).map((stage) => {
    const delay = stage.spec?.delay;
    // Node stages keep theirs: the heartbeat's delay is its interval.
    if (delay && stage.spec?.resourceRef?.kind === "Pod") {
      delay.durationMilliseconds = 200;
      delete delay.jitterDurationMilliseconds;
    }
    return `---\n${stringify(stage)}`;
  }).join("");
}

export function kubeconfig(server: string, token: string, user: string): string {
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "berth-test", cluster: { server, "insecure-skip-tls-verify": true } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: user, context: { cluster: "berth-test", user } }],
    "current-context": user,
  });
}

export function runKubectl(kubectl: string, kubeconfigPath: string, args: string[], input?: string): string {
  const result = spawnSync(kubectl, [`--kubeconfig=${kubeconfigPath}`, ...args], { input, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`kubectl ${args.join(" ")} failed: ${result.stderr || result.stdout || result.error?.message}`);
  return result.stdout;
}

function trying(action: () => unknown): boolean {
  try {
    action();
    return true;
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} was not ready within ${timeoutMs / 1000} s`);
}

async function httpOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  return response.ok;
}

/** A GET against the apiserver's self-signed certificate. */
function httpsOk(url: string, token: string): Promise<boolean> {
  return new Promise((resolve) => {
    const call = request(url, { rejectUnauthorized: false, headers: { Authorization: `Bearer ${token}` }, timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    call.on("error", () => resolve(false));
    call.on("timeout", () => call.destroy());
    call.end();
  });
}

/** Ports free on 127.0.0.1 now (the kernel's choice), distinct from one another. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise<import("node:net").Server>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  })));
  const ports = servers.map((server) => (server.address() as import("node:net").AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
function ended(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
