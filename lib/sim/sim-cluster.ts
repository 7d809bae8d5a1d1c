import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { AccessControl } from "./access/access-control.ts";
import { ensureBootstrapPolicy } from "./access/bootstrap-policy.ts";
import { ensureServedDefinitions } from "./api/served-definitions.ts";
import { ensureAgentSandboxInstall } from "./agent-sandbox-install.ts";
import { RbacAuthorizer } from "./access/rbac-authorizer.ts";
import { TokenAuthority, type StaticToken, type TokenAuthoritySnapshot } from "./access/token-authority.ts";
import { ApiServer, type PodSubresources } from "./api/api-server.ts";
import { faultRoutes } from "./api/fault-routes.ts";
import { resourceFor } from "./api/resources.ts";
import { servingCertificate } from "./api/serving-certificate.ts";
import { strategyFor } from "./api/strategies.ts";
import { namespaceObject, SYSTEM_NAMESPACES, workerNode } from "./bootstrap.ts";
import { ScaledClock, type Clock } from "./clock.ts";
import { AgentSandboxController } from "./controllers/agent-sandbox-controller.ts";
import { SandboxClaimController } from "./controllers/sandbox-claim-controller.ts";
import { SandboxTemplateController } from "./controllers/sandbox-template-controller.ts";
import { SandboxWarmPoolController } from "./controllers/sandbox-warm-pool-controller.ts";
import { EventRecorder } from "./controllers/event-recorder.ts";
import { Kubelet } from "./controllers/kubelet.ts";
import { EventExpiry } from "./controllers/event-ttl.ts";
import { NodeHeartbeats, NodeLifecycleController, TaintEvictionController } from "./controllers/node-lifecycle.ts";
import { PodGarbageCollector } from "./controllers/pod-gc.ts";
import { ReconcileLoop, type Reconciler } from "./controllers/reconciler.ts";
import { Faults } from "./faults.ts";
import { refs } from "./k8s-objects.ts";
import type { KubeObject, StoredObject } from "./objects.ts";
import { saveDelayMs } from "./save-pacing.ts";
import { StatusError, type ResourceRef } from "./status-error.ts";
import { ObjectStore, type ObjectStoreSnapshot } from "./store/object-store.ts";
import { VolumeContents, type VolumeContentsSnapshot } from "./volume-contents.ts";

// The embedded simulated cluster, assembled: the object store, the API server in front of it,
// the simulated controllers behind it, the fault API, and persistence of the whole state under
// a data directory so that a restart of the console does not reset the cluster.

export interface SimClusterOptions {
  /** Where state.json and kubeconfig live; nothing is persisted without it. */
  dataDir?: string;
  /** Simulated seconds per real second (60: a minute passes in a second). */
  clockScale?: number;
  clock?: Clock;
  workers?: number;
  port?: number;
  imagePullMs?: number;
  /** Extra reconcilers (scheduler, volumes, garbage collection…) built from the cluster's parts. */
  controllers?: (parts: SimParts) => Reconciler[];
  podSubresources?: (parts: SimParts) => Partial<PodSubresources>;
  /** The volume controllers' provisioning fault switch, for the fault API. */
  failProvisioning?: (storageClass: string, message: string | null) => void;
  /** Objects to create in a new cluster besides namespaces and nodes (storage classes…). */
  seed?: () => { ref: ResourceRef; object: KubeObject }[];
  log?: (line: string) => void;
  /** Bearer tokens the API server accepts besides its admin token, as kube-apiserver's --token-auth-file. */
  staticTokens?: StaticToken[];
  /** Called once the cluster has stopped and saved its state. */
  onStop?: () => void;
  /** Group versions the API server does not serve (`agents.x-k8s.io/v1alpha1`, as agent-sandbox 1.0 drops it). */
  withdrawnVersions?: readonly string[];
}

export interface SimParts {
  store: ObjectStore;
  clock: Clock;
  recorder: EventRecorder;
  volumes: VolumeContents;
  kubelet: Kubelet;
  faults: Faults;
  gracePeriodOf: (pod: StoredObject) => number;
}

interface PersistedState {
  format: "berth.sim/v1";
  savedAt: string;
  clock: string;
  objects: ObjectStoreSnapshot;
  volumes: VolumeContentsSnapshot;
  nodesDown: string[];
  /** Absent in a state saved before the API server authenticated requests: a new admin token is made. */
  tokens?: TokenAuthoritySnapshot;
}

const podGracePeriod = (pod: StoredObject) => strategyFor(resourceFor("", "pods")).deletionGracePeriodSeconds?.(pod) ?? 0;

export class SimCluster {
  readonly store: ObjectStore;
  readonly clock: Clock;
  readonly volumes = new VolumeContents();
  readonly faults: Faults;
  readonly kubelet: Kubelet;
  readonly recorder: EventRecorder;
  readonly tokens: TokenAuthority;
  private readonly loops: ReconcileLoop[] = [];
  private readonly heartbeats: NodeHeartbeats;
  private readonly eventExpiry: EventExpiry;
  private readonly server: ApiServer;
  private url = "";
  private tlsUrl: string | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> | undefined;
  /** The size of the last state saved, which paces the next save. */
  private lastStateBytes = 0;
  private unsubscribeSave: () => void = () => {};

  private constructor(private readonly options: SimClusterOptions, restored: PersistedState | null) {
    this.clock = options.clock ?? new ScaledClock(options.clockScale ?? 1, restored ? new Date(restored.clock) : new Date());
    this.store = new ObjectStore(this.clock);
    if (restored) {
      this.store.restore(restored.objects);
      this.volumes.restore(restored.volumes);
    }
    this.recorder = new EventRecorder(this.store, this.clock);
    this.tokens = new TokenAuthority(this.store, () => this.clock.now(), { restored: restored?.tokens, staticTokens: options.staticTokens });
    let faults: Faults | undefined;
    this.kubelet = new Kubelet({
      store: this.store,
      clock: this.clock,
      recorder: this.recorder,
      volumes: this.volumes,
      nodeIsUp: (name) => faults?.nodeIsUp(name) ?? true,
      imagePullMs: options.imagePullMs,
    });
    // The server calls through to whatever handlers startParts installs.
    const pods: PodSubresources = {
      evict: (...args) => this.podHandlers.evict(...args),
      bind: (...args) => this.podHandlers.bind(...args),
      log: (...args) => this.podHandlers.log(...args),
      exec: (...args) => this.podHandlers.exec(...args),
    };
    this.server = new ApiServer({
      store: this.store,
      access: new AccessControl(this.tokens, new RbacAuthorizer(this.store)),
      pods,
      nodes: { statsSummary: (nodeName) => this.kubelet.statsSummary(nodeName) },
      gate: (info) => this.faults.gate(info),
      routes: (request, response, url) => this.faultApi(request, response, url),
      log: options.log,
      now: () => this.clock.now(),
      withdrawnVersions: options.withdrawnVersions,
    });
    faults = new Faults({
      store: this.store,
      clock: this.clock,
      recorder: this.recorder,
      evict: (namespace, name, body) => this.podHandlers.evict(namespace, name, body, false),
      kubeletEvict: (namespace, name, resource) => this.kubelet.evictForPressure(namespace, name, resource),
      failProvisioning: (storageClass, message) => {
        if (!options.failProvisioning) throw StatusError.of(501, "NotImplemented", "this simulated cluster runs no volume controllers");
        options.failProvisioning(storageClass, message);
      },
      dropWatches: () => this.server.watches.dropAll(),
      gracePeriodOf: podGracePeriod,
    });
    this.faults = faults;
    this.faultApi = faultRoutes(faults, () => this.describe());
    for (const name of restored?.nodesDown ?? []) this.faults.nodesDown.add(name);
    this.heartbeats = new NodeHeartbeats(this.store, this.clock, this.faults.nodeIsUp);
    this.eventExpiry = new EventExpiry(this.store, this.clock);
  }

  private readonly faultApi: ReturnType<typeof faultRoutes>;
  private podHandlers: PodSubresources = {
    evict: () => {
      throw StatusError.of(501, "NotImplemented", "this simulated cluster was started without the eviction subresource");
    },
    bind: () => {
      throw StatusError.of(501, "NotImplemented", "this simulated cluster was started without the binding subresource");
    },
    log: (namespace, name, query) => this.kubelet.log(namespace, name, query.get("container") ?? undefined),
    exec: (request, socket, head, namespace, name, query) => this.kubelet.exec(request, socket, head, namespace, name, query),
  };

  static async start(options: SimClusterOptions): Promise<SimCluster> {
    const restored = options.dataDir ? loadState(options.dataDir) : null;
    const cluster = new SimCluster(options, restored);
    if (!restored) cluster.seed();
    ensureBootstrapPolicy(cluster.store);
    ensureServedDefinitions(cluster.store, cluster.clock.now());
    ensureAgentSandboxInstall(cluster.store);
    await cluster.startParts();
    return cluster;
  }

  get parts(): SimParts {
    return { store: this.store, clock: this.clock, recorder: this.recorder, volumes: this.volumes, kubelet: this.kubelet, faults: this.faults, gracePeriodOf: podGracePeriod };
  }

  /** The token of the cluster's administrator (system:masters), as kind writes one into its kubeconfig. */
  get adminToken(): string {
    return this.tokens.adminToken;
  }

  /** The API server's address, e.g. http://127.0.0.1:40123. */
  get serverUrl(): string {
    return this.url;
  }

  /** Its HTTPS address, written into the kubeconfig; only for a cluster with a data directory. */
  get secureServerUrl(): string | undefined {
    return this.tlsUrl;
  }

  private seed(): void {
    for (const name of SYSTEM_NAMESPACES) this.store.create(refs.namespaces, namespaceObject(name));
    for (let index = 0; index < (this.options.workers ?? 3); index++) this.store.create(refs.nodes, workerNode(index));
    for (const { ref, object } of this.options.seed?.() ?? []) this.store.create(ref, object);
  }

  private async startParts(): Promise<void> {
    const parts = this.parts;
    this.podHandlers = { ...this.podHandlers, ...this.options.podSubresources?.(parts) };
    const reconcilers: Reconciler[] = [
      new AgentSandboxController(this.store, this.clock, this.recorder),
      // The same controller binary runs these with --extensions, as agent-sandbox's release installs it.
      new SandboxTemplateController(this.store),
      new SandboxWarmPoolController(this.store, this.clock, this.recorder),
      new SandboxClaimController(this.store, this.clock, this.recorder),
      this.kubelet,
      new NodeLifecycleController(this.store, this.clock, this.recorder),
      new TaintEvictionController(this.store, this.clock, this.recorder, podGracePeriod),
      new PodGarbageCollector(this.store, this.clock),
      ...(this.options.controllers?.(parts) ?? []),
    ];
    for (const reconciler of reconcilers) {
      const loop = new ReconcileLoop(reconciler, this.store, this.clock, (name, key, error) => this.options.log?.(`${name} ${key}: ${(error as Error)?.message ?? String(error)}`));
      this.loops.push(loop);
      loop.start();
    }
    this.heartbeats.start();
    this.eventExpiry.start();
    this.url = await this.server.listen(this.options.port ?? 0);
    if (this.options.dataDir) {
      // Stock clients (kubectl) get an https:// address: they send no token over plain HTTP.
      const certificate = await servingCertificate(this.options.dataDir);
      this.tlsUrl = await this.server.listen(0, "127.0.0.1", certificate);
      writeKubeconfig(this.options.dataDir, this.tlsUrl, certificate.cert, this.tokens.adminToken);
      this.unsubscribeSave = this.store.subscribe(() => this.scheduleSave());
    }
  }

  /** What GET /sim/v1/state reports: the clock and which nodes are up. */
  describe() {
    return {
      clock: this.clock.now().toISOString(),
      revision: this.store.currentRevision(),
      nodes: this.store.list(refs.nodes).map((node) => ({ name: node.metadata.name, up: this.faults.nodeIsUp(node.metadata.name) })),
      openWatches: this.server.watches.openCount,
    };
  }

  /** True when no controller has work queued: the simulated world is at rest. */
  get idle(): boolean {
    return this.loops.every((loop) => loop.idle);
  }

  get apiServer(): ApiServer {
    return this.server;
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      // One save at a time: changes made while one is written are saved by the next.
      if (this.saving) return this.scheduleSave();
      this.saving = this.saveInBackground()
        .catch((error: unknown) => {
          // A full disk must not take the console down; the next change tries again.
          this.options.log?.(`saving the simulated cluster's state failed: ${(error as Error).message}`);
          console.error("simulated cluster: saving state failed", error);
        })
        .finally(() => (this.saving = undefined));
    }, saveDelayMs(this.lastStateBytes));
    this.saveTimer.unref?.();
  }

  /**
   * The whole state as JSON. Made from each object's and each volume's own cached JSON: a
   * cluster of a few hundred idle sandboxes (whose heartbeats change it every second) would
   * otherwise spend tens of milliseconds of the event loop on every save.
   */
  private stateJson(): string {
    const header: Omit<PersistedState, "objects" | "volumes"> = {
      format: "berth.sim/v1",
      savedAt: new Date().toISOString(),
      clock: this.clock.now().toISOString(),
      nodesDown: [...this.faults.nodesDown],
      tokens: this.tokens.snapshot(),
    };
    return `${JSON.stringify(header).slice(0, -1)},"objects":${this.store.snapshotJson()},"volumes":${this.volumes.snapshotJson()}}`;
  }

  /** Where the state goes, or null for a cluster that keeps nothing. It holds the admin token: readable by its owner only. */
  private stateFile(): string | null {
    return this.options.dataDir ? path.join(this.options.dataDir, "state.json") : null;
  }

  /** Writes the state atomically (write then rename), so a crash never leaves half a file; off the event loop. */
  private async saveInBackground(): Promise<void> {
    const file = this.stateFile();
    if (!file) return;
    const json = this.stateJson();
    this.lastStateBytes = json.length;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(`${file}.tmp`, json, { mode: 0o600 });
    await rename(`${file}.tmp`, file);
  }

  /** The last save, when stopping: nothing may be left unwritten. */
  private saveNow(): void {
    const file = this.stateFile();
    if (!file) return;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, this.stateJson(), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  async stop(): Promise<void> {
    this.unsubscribeSave();
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.heartbeats.stop();
    this.eventExpiry.stop();
    for (const loop of this.loops) loop.stop();
    await this.saving;
    this.saveNow();
    await this.server.close();
    this.options.onStop?.();
  }
}

function loadState(dataDir: string): PersistedState | null {
  const file = path.join(dataDir, "state.json");
  if (!existsSync(file)) return null;
  const state = JSON.parse(readFileSync(file, "utf8")) as PersistedState;
  if (state.format !== "berth.sim/v1") throw new Error(`${file} is not a Berth simulated cluster state (format ${String(state.format)})`);
  return state;
}

export function kubeconfigPath(dataDir: string): string {
  return path.join(dataDir, "kubeconfig");
}

function writeKubeconfig(dataDir: string, server: string, caCertificate: string, token: string): void {
  mkdirSync(dataDir, { recursive: true });
  const kubeconfig = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "berth-sim", cluster: { server, "certificate-authority-data": Buffer.from(caCertificate).toString("base64") } }],
    users: [{ name: "berth-sim", user: { token } }],
    contexts: [{ name: "berth-sim", context: { cluster: "berth-sim", user: "berth-sim", namespace: "default" } }],
    "current-context": "berth-sim",
  };
  // The admin's token: readable by its owner only, as kubeconfigs should be.
  writeFileSync(kubeconfigPath(dataDir), JSON.stringify(kubeconfig, null, 2), { mode: 0o600 });
}
