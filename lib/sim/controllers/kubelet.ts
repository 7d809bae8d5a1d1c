import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Clock } from "../clock.ts";
import { execInShell, handleExecUpgrade, rejectUpgrade, type ContainerShell } from "../exec/index.ts";
import { PodFileSystem, type VolumeMount } from "../filesystem/index.ts";
import { runCommand, type CommandResult } from "../shell/index.ts";
import {
  keyOf, list, nodeNameOf, podPhase, record, refs, setCondition, splitKey, status, timestamp, type Condition,
} from "../k8s-objects.ts";
import { clone, deepEqual, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { VolumeContents } from "../volume-contents.ts";
import type { EventRecorder } from "./event-recorder.ts";
import { statsSummary, type MountedVolume, type RunningPod } from "./kubelet-stats.ts";
import { bytesOf } from "../storage-topology.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";

// The kubelets of every simulated node in one place: mount volumes, pull images, run init
// containers to completion and then the containers, report status, honour the termination
// grace period, and answer exec and log. Each container gets its own copy of its image's
// file system; an emptyDir lives and dies with its pod; a claim's data lives with its PV.

export interface KubeletOptions {
  store: ObjectStore;
  clock: Clock;
  recorder: EventRecorder;
  volumes: VolumeContents;
  /** Whether the kubelet of this node is running (a lost node's is not). */
  nodeIsUp: (nodeName: string) => boolean;
  imagePullMs?: number;
  /**
   * How long the pod's sandbox and network take (the runtime's pause container, the CNI plugin's
   * address) before its containers can start: a second of cluster time by default, as containerd
   * with a CNI plugin takes. A replacement pod is never Ready the instant its predecessor goes.
   */
  sandboxSetupMs?: number;
}

interface ContainerRuntime {
  name: string;
  /** SIGKILL: the process and everything exec'd into the container end at once. */
  abort: AbortController;
  /** SIGTERM to the main process, which decides itself what to do with it. */
  terminate: AbortController;
  running: boolean;
  restartCount: number;
  startedAt?: string;
  exitCode?: number;
  /** How the previous run ended, reported as `lastState` once the container runs again. */
  lastTermination?: Termination;
  /** Set while the container waits to be restarted after it exited. */
  backOffMs?: number;
}

interface Termination {
  exitCode: number;
  startedAt?: string;
  finishedAt: string;
}

interface PodRuntime {
  uid: string;
  key: string;
  started: boolean;
  containers: Map<string, ContainerRuntime>;
  logs: Map<string, string>;
  /** Set once the pod's deletion has been acted on. */
  terminating: boolean;
  releaseIp?: () => void;
  /** When the containers are killed if they have not stopped by themselves. */
  terminationDeadline?: number;
}

const COMPONENT = "kubelet";
const MAX_LOG_CHARS = 1_000_000;

export class Kubelet implements Reconciler {
  readonly name = "kubelet";
  private enqueue?: (key: string) => void;
  private readonly pods = new Map<string, PodRuntime>();
  private readonly pulled = new Map<string, Set<string>>();
  /** Pod IPs in use per node (each node has a /24), so no two running pods share one. */
  private readonly ipsInUse = new Map<string, Set<number>>();

  constructor(private readonly options: KubeletOptions) {}

  private get store() {
    return this.options.store;
  }

  connect(enqueue: (key: string) => void): void {
    this.enqueue = enqueue;
  }

  initialKeys(): string[] {
    return this.store.list(refs.pods).filter((pod) => nodeNameOf(pod)).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.resource === "pods") return [keyOf(event.object)];
    // A node that changes (comes back, is marked unreachable) concerns the pods on it. Claims
    // need no event: a starting pod polls its claims.
    if (event.resource === "nodes") {
      return this.store.list(refs.pods).filter((pod) => nodeNameOf(pod) === event.object.metadata.name).map(keyOf);
    }
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const pod = this.store.peek(refs.pods, namespace, name);
    const runtime = this.pods.get(key);
    if (runtime && (!pod || pod.metadata.uid !== runtime.uid)) this.forget(runtime);
    if (!pod) return;
    const nodeName = nodeNameOf(pod);
    if (!nodeName || !this.options.nodeIsUp(nodeName)) return;

    if (pod.metadata.deletionTimestamp) return this.terminate(pod);
    const phase = podPhase(pod);
    if (phase === "Failed" || phase === "Succeeded") return;
    if (runtime?.started && runtime.uid === pod.metadata.uid) {
      // The kubelet resyncs what it reports: after a node was unreachable its pods are Ready again.
      this.reportRunning(runtime);
      return;
    }
    if (!this.pods.has(key)) {
      const fresh: PodRuntime = { uid: pod.metadata.uid, key, started: false, containers: new Map(), logs: new Map(), terminating: false };
      this.pods.set(key, fresh);
      if (phase === "Running") {
        // A pod that was running before the simulated cluster restarted: its processes start
        // again, its file systems are as they were, its IP stays its own.
        this.reserveIp(nodeName, String(record(pod.status).podIP ?? ""), fresh);
        for (const container of list(record(pod.spec).containers)) this.startMainContainer(pod, fresh, container);
        fresh.started = true;
        return;
      }
      void this.start(pod, fresh).catch((error: unknown) => this.failed(pod, error));
    }
  }

  // ---- start-up ----

  private async start(pod: StoredObject, runtime: PodRuntime): Promise<void> {
    const nodeName = nodeNameOf(pod)!;
    const alive = () => this.current(runtime) !== undefined && !runtime.terminating;
    const initNames = list(record(pod.spec).initContainers).map((container) => String(container.name));
    this.updateStatus(runtime, (next) => {
      Object.assign(status(next), { hostIP: this.hostIp(nodeName), startTime: timestamp(this.options.clock.now()) });
      const now = timestamp(this.options.clock.now());
      setCondition(next, { type: "PodReadyToStartContainers", status: "False" }, now);
      // A pod without init containers is Initialized from the start, as the kubelet reports it.
      setCondition(next, initNames.length === 0
        ? { type: "Initialized", status: "True" }
        : { type: "Initialized", status: "False", reason: "ContainersNotInitialized", message: `containers with incomplete status: [${initNames.join(" ")}]` }, now);
      setCondition(next, { type: "Ready", status: "False", reason: "ContainersNotReady" }, now);
      setCondition(next, { type: "ContainersReady", status: "False", reason: "ContainersNotReady" }, now);
    });

    // Volumes: wait until every claim is bound.
    while (alive()) {
      const missing = this.unboundClaim(pod);
      if (!missing) break;
      await this.options.clock.sleep(1_000);
    }
    if (!alive()) return;
    await this.options.clock.sleep(this.options.sandboxSetupMs ?? 1_000);
    if (!alive()) return;

    const podSpec = record(pod.spec);
    const initContainers = list(podSpec.initContainers);
    const containers = list(podSpec.containers);
    const ip = this.allocateIp(nodeName, runtime);
    this.updateStatus(runtime, (next) => {
      Object.assign(status(next), { podIP: ip, podIPs: [{ ip }] });
      setCondition(next, { type: "PodReadyToStartContainers", status: "True" }, timestamp(this.options.clock.now()));
    });

    for (const container of initContainers) {
      if (!alive()) return;
      await this.pull(pod, String(container.image));
      for (let attempt = 0; alive(); attempt++) {
        this.event(pod, "Normal", "Created", `Created container: ${container.name}`);
        this.event(pod, "Normal", "Started", `Started container ${container.name}`);
        const result = await this.runContainer(pod, runtime, container, new AbortController());
        if (result.exitCode === 0) break;
        if (podSpec.restartPolicy === "Never") return this.fail(runtime, "Init:Error", `init container ${container.name} exited with ${result.exitCode}`);
        this.event(pod, "Warning", "BackOff", `Back-off restarting failed container ${container.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`);
        await this.options.clock.sleep(Math.min(300_000, 10_000 * 2 ** attempt));
      }
    }
    if (!alive()) return;
    this.updateStatus(runtime, (next) => {
      setCondition(next, { type: "Initialized", status: "True" }, timestamp(this.options.clock.now()));
      status(next).initContainerStatuses = initContainers.map((container) => ({
        name: container.name, image: container.image, imageID: "", ready: true, restartCount: 0, started: false,
        state: { terminated: { exitCode: 0, reason: "Completed", startedAt: timestamp(this.options.clock.now()), finishedAt: timestamp(this.options.clock.now()) } },
      }));
    });

    for (const container of containers) await this.pull(pod, String(container.image));
    if (!alive()) return;
    for (const container of containers) this.startMainContainer(pod, runtime, container);
    runtime.started = true;
    this.reportRunning(runtime);
  }

  private startMainContainer(pod: StoredObject, runtime: PodRuntime, container: Record<string, unknown>): void {
    const name = String(container.name);
    const state: ContainerRuntime = runtime.containers.get(name) ?? { name, abort: new AbortController(), terminate: new AbortController(), running: false, restartCount: 0 };
    state.abort = new AbortController();
    state.terminate = new AbortController();
    // A container that ran before is restarted: the kubelet counts it then, not when it exited.
    if (state.exitCode !== undefined) state.restartCount++;
    state.running = true;
    state.startedAt = timestamp(this.options.clock.now());
    delete state.exitCode;
    delete state.backOffMs;
    runtime.containers.set(name, state);
    this.event(pod, "Normal", "Created", `Created container: ${name}`);
    this.event(pod, "Normal", "Started", `Started container ${name}`);
    void this.runContainer(pod, runtime, container, state.abort, state.terminate.signal)
      .then((result) => this.containerExited(pod, runtime, container, state, result.exitCode))
      .catch((error: unknown) => this.failed(pod, error));
  }

  private containerExited(pod: StoredObject, runtime: PodRuntime, container: Record<string, unknown>, state: ContainerRuntime, exitCode: number): void {
    state.running = false;
    state.exitCode = exitCode;
    state.lastTermination = { exitCode, ...(state.startedAt ? { startedAt: state.startedAt } : {}), finishedAt: timestamp(this.options.clock.now()) };
    // The container's processes, exec sessions included, end with its main process.
    state.abort.abort(new Error("container exited"));
    if (!this.current(runtime)) return;
    // A container that stopped on SIGTERM may be the last one the pod's deletion waits for.
    if (runtime.terminating) return this.enqueue?.(runtime.key);
    if (willRestart(pod, exitCode)) {
      const delay = Math.min(300_000, 10_000 * 2 ** state.restartCount);
      state.backOffMs = delay;
      this.event(pod, "Warning", "BackOff", `Back-off restarting failed container ${state.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`);
      this.reportRunning(runtime);
      void this.options.clock
        .sleep(delay)
        .then(() => {
          if (!runtime.terminating && this.current(runtime)) this.startMainContainer(pod, runtime, container);
          this.reportRunning(runtime);
        })
        .catch((error: unknown) => this.failed(pod, error));
      return;
    }
    this.reportRunning(runtime);
  }

  private reportRunning(runtime: PodRuntime): void {
    const pod = this.current(runtime);
    if (!pod) return;
    const containers = list(record(pod.spec).containers);
    const states = containers.map((container) => runtime.containers.get(String(container.name)));
    // The pod is over only when every container has exited for good; one waiting to be
    // restarted keeps it Running (in CrashLoopBackOff), as the kubelet reports it.
    const allDone = states.every((state) => state?.exitCode !== undefined && state.backOffMs === undefined);
    const allRunning = states.every((state) => state?.running);
    this.updateStatus(runtime, (next) => {
      const now = timestamp(this.options.clock.now());
      status(next).containerStatuses = containers.map((container) => {
        const state = runtime.containers.get(String(container.name));
        const base = {
          name: container.name, image: container.image, imageID: `${container.image}@sha256:${"0".repeat(64)}`,
          containerID: `containerd://${runtime.uid.replace(/-/g, "")}`, restartCount: state?.restartCount ?? 0,
        };
        if (!state) return { ...base, ready: false, started: false, state: { waiting: { reason: "ContainerCreating" } } };
        const lastTermination = state.lastTermination;
        const terminated = lastTermination ? { terminated: { ...lastTermination, reason: lastTermination.exitCode === 0 ? "Completed" : "Error" } } : undefined;
        if (state.running) return { ...base, ready: true, started: true, state: { running: { startedAt: state.startedAt } }, ...(terminated ? { lastState: terminated } : {}) };
        if (state.backOffMs !== undefined) {
          const message = `back-off ${state.backOffMs / 1000}s restarting failed container=${state.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
          return { ...base, ready: false, started: false, state: { waiting: { reason: "CrashLoopBackOff", message } }, ...(terminated ? { lastState: terminated } : {}) };
        }
        return { ...base, ready: false, started: false, state: terminated ?? { waiting: { reason: "ContainerCreating" } } };
      });
      const ready: Condition = allRunning ? { type: "Ready", status: "True" } : { type: "Ready", status: "False", reason: "ContainersNotReady", message: "containers with unready status" };
      setCondition(next, ready, now);
      setCondition(next, { ...ready, type: "ContainersReady" }, now);
      if (allDone) {
        const failed = states.some((state) => state!.exitCode !== 0);
        status(next).phase = failed ? "Failed" : "Succeeded";
      } else {
        status(next).phase = "Running";
      }
    });
  }

  private fail(runtime: PodRuntime, reason: string, message: string): void {
    this.updateStatus(runtime, (next) => {
      Object.assign(status(next), { phase: "Failed", reason, message });
    });
  }

  // ---- termination ----

  private terminate(pod: StoredObject): ReconcileResult | void {
    const key = keyOf(pod);
    const runtime = this.pods.get(key);
    const now = this.options.clock.now().getTime();
    // Like a real kubelet, the grace period counts from when the kubelet starts stopping the pod
    // (deletionTimestamp has only second precision).
    if (runtime && runtime.terminationDeadline === undefined) {
      runtime.terminationDeadline = now + (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
    }
    const deadline = runtime?.terminationDeadline ?? now;
    const stillRunning = runtime ? [...runtime.containers.values()].filter((container) => container.running) : [];
    if (runtime && !runtime.terminating) {
      runtime.terminating = true;
      for (const container of stillRunning) {
        this.event(pod, "Normal", "Killing", `Stopping container ${container.name}`);
        void this.stopContainer(pod, container, deadline - now).catch((error: unknown) => this.failed(pod, error));
      }
    }
    // What is still running when the grace period is over is killed, as on a real node: agent
    // containers run `sleep infinity` as PID 1, which ignores SIGTERM.
    if (stillRunning.length > 0 && now < deadline) return { requeueAfterMs: deadline - now };
    if (runtime) this.forget(runtime);
    this.options.volumes.dropPod(pod.metadata.uid);
    try {
      this.store.delete(refs.pods, pod.metadata.namespace, pod.metadata.name, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
    } catch (error) {
      if (!(error instanceof StatusError && (error.code === 404 || error.code === 409))) throw error;
    }
  }

  /** The preStop hook first (it counts against the grace period), then SIGTERM to the main process. */
  private async stopContainer(pod: StoredObject, container: ContainerRuntime, budgetMs: number): Promise<void> {
    await this.runPreStop(pod, container.name, budgetMs);
    container.terminate.abort(new Error("SIGTERM"));
  }

  private async runPreStop(pod: StoredObject, containerName: string, budgetMs: number): Promise<void> {
    const container = list(record(pod.spec).containers).find((one) => one.name === containerName);
    const command = list<string>(record(record(record(container?.lifecycle).preStop).exec).command);
    if (!container || command.length === 0) return;
    const abort = new AbortController();
    const cancel = this.options.clock.after(Math.max(0, budgetMs), () => abort.abort(new Error("grace period over")));
    const result = await runCommand(command, { ...this.containerShell(pod, container), signal: abort.signal });
    cancel();
    if (result.exitCode !== 0) {
      this.event(pod, "Warning", "FailedPreStopHook", `PreStopHook failed: command '${command.join(" ")}' exited with ${result.exitCode}: ${result.stderr}`);
    }
  }

  private forget(runtime: PodRuntime): void {
    for (const container of runtime.containers.values()) container.abort.abort(new Error("container stopped"));
    runtime.releaseIp?.();
    runtime.terminating = true;
    this.pods.delete(runtime.key);
  }

  /**
   * The node's Summary API, what `nodes/{node}/proxy/stats/summary` answers: the volumes of each
   * pod running there. A node whose kubelet is down does not answer, as the API server's proxy
   * then cannot reach it.
   */
  statsSummary(nodeName: string): ReturnType<typeof statsSummary> {
    const node = this.store.peek(refs.nodes, undefined, nodeName);
    if (!node) throw StatusError.of(404, "NotFound", `nodes "${nodeName}" not found`, { name: nodeName, kind: "nodes" });
    if (!this.options.nodeIsUp(nodeName)) {
      throw StatusError.of(503, "ServiceUnavailable", `error trying to reach service: dial tcp ${this.hostIp(nodeName)}:10250: connect: connection refused`);
    }
    const running: RunningPod[] = [];
    for (const runtime of this.pods.values()) {
      const pod = this.current(runtime);
      if (!pod || !runtime.started || nodeNameOf(pod) !== nodeName) continue;
      const volumes: MountedVolume[] = [];
      for (const volume of list(record(pod.spec).volumes)) {
        const data = this.volumeData(pod, volume);
        if (!data) continue;
        const claimName = record(volume.persistentVolumeClaim).claimName;
        volumes.push({ name: String(volume.name), data, capacityBytes: this.capacityOf(pod, volume, nodeName), ...(typeof claimName === "string" ? { claimName } : {}) });
      }
      running.push({ pod, volumes });
    }
    return statsSummary(nodeName, running, this.options.clock.now());
  }

  /** A claim's volume holds what its PersistentVolume says; an emptyDir its size limit, or the node's ephemeral storage. */
  private capacityOf(pod: StoredObject, volume: Record<string, unknown>, nodeName: string): number {
    const claimName = record(volume.persistentVolumeClaim).claimName;
    if (typeof claimName === "string") {
      const claim = this.store.peek(refs.claims, pod.metadata.namespace, claimName);
      const persistentVolume = this.store.peek(refs.volumes, undefined, String(record(claim?.spec).volumeName ?? ""));
      return bytesOf(record(record(persistentVolume?.spec).capacity).storage ?? record(record(claim?.status).capacity).storage);
    }
    const limit = bytesOf(record(volume.emptyDir).sizeLimit);
    if (limit > 0) return limit;
    const node = this.store.peek(refs.nodes, undefined, nodeName);
    return bytesOf(record(record(node?.status).capacity)["ephemeral-storage"]);
  }

  /** Kubelet node-pressure eviction: the pod ends Failed/Evicted and stays, as on a real node. */
  evictForPressure(namespace: string, name: string, resource = "memory"): StoredObject {
    const pod = this.store.get(refs.pods, namespace, name);
    const message = `The node was low on resource: ${resource}. Threshold quantity: 100Mi, available: 42Mi. `;
    const runtime = this.pods.get(keyOf(pod));
    if (runtime) this.forget(runtime);
    const next = clone(pod);
    const now = timestamp(this.options.clock.now());
    setCondition(next, { type: "DisruptionTarget", status: "True", reason: "TerminationByKubelet", message }, now);
    setCondition(next, { type: "Ready", status: "False", reason: "PodFailed" }, now);
    setCondition(next, { type: "ContainersReady", status: "False", reason: "PodFailed" }, now);
    Object.assign(status(next), {
      phase: "Failed",
      reason: "Evicted",
      message,
      containerStatuses: list(record(pod.spec).containers).map((container) => ({
        name: container.name, image: container.image, imageID: "", ready: false, restartCount: 0, started: false,
        state: { terminated: { exitCode: 137, reason: "ContainerStatusUnknown", message: "The container could not be located when the pod was terminated", finishedAt: now } },
      })),
    });
    const updated = this.store.update(refs.pods, next);
    this.event(updated, "Warning", "Evicted", message);
    return updated;
  }

  // ---- exec and logs ----

  /**
   * Serves a pods/exec WebSocket upgrade: refuses before the upgrade, as the API server does,
   * when the pod or its container is not running; otherwise runs the command in the container's
   * shell over the channel protocol.
   */
  exec(request: IncomingMessage, socket: Duplex, head: Buffer, namespace: string, name: string, query: URLSearchParams): void {
    const pod = this.store.peek(refs.pods, namespace, name);
    if (!pod) {
      rejectUpgrade(socket, refusal(StatusError.notFound(refs.pods, name)));
      return;
    }
    const containers = list(record(pod.spec).containers);
    const wanted = query.get("container");
    const container = wanted ? containers.find((one) => one.name === wanted) : containers[0];
    if (!container) {
      rejectUpgrade(socket, refusal(StatusError.badRequest(`container ${wanted} is not valid for pod ${name}`)));
      return;
    }
    const runtime = this.pods.get(keyOf(pod));
    const state = runtime?.containers.get(String(container.name));
    if (!runtime || runtime.uid !== pod.metadata.uid || !state?.running || pod.metadata.deletionTimestamp) {
      rejectUpgrade(socket, refusal(StatusError.badRequest(`unable to upgrade connection: container not found ("${String(container.name)}")`)));
      return;
    }
    // An exec'd process lives in the container: it is killed (137) when the container stops,
    // whether the client is still attached or not.
    const containerLife = state.abort.signal;
    void handleExecUpgrade(request, socket, head, (options, io) =>
      execInShell(options, { ...io, signal: AbortSignal.any([io.signal, containerLife]) }, this.containerShell(pod, container)),
    );
  }

  log(namespace: string, name: string, containerName?: string): string {
    const pod = this.store.get(refs.pods, namespace, name);
    const runtime = this.pods.get(keyOf(pod));
    const container = containerName ?? String(list(record(pod.spec).containers)[0]?.name);
    return runtime?.logs.get(container) ?? "";
  }

  // ---- helpers ----

  private async runContainer(
    pod: StoredObject,
    runtime: PodRuntime,
    container: Record<string, unknown>,
    abort: AbortController,
    terminate?: AbortSignal,
  ): Promise<CommandResult> {
    const command = list<string>(container.command);
    const args = list<string>(container.args);
    // Arguments alone go to the image's entrypoint when they begin with a flag (a controller's
    // --leader-elect=true); otherwise they are the command itself, as for an image without one.
    const argv = command.length === 0 && args[0]?.startsWith("-") ? [] : [...command, ...args];
    const name = String(container.name);
    // The container log is written as the process prints, as a real runtime's log file is.
    const appendLog = (text: string) => {
      const log = (runtime.logs.get(name) ?? "") + text;
      runtime.logs.set(name, log.length > MAX_LOG_CHARS ? log.slice(-MAX_LOG_CHARS) : log);
    };
    // No command: the image's entrypoint, which stands for a service (pause, a controller, a
    // server): it runs until SIGTERM and then exits cleanly.
    if (argv.length === 0) {
      const stopped = terminate ? AbortSignal.any([abort.signal, terminate]) : abort.signal;
      return this.options.clock.sleep(Number.POSITIVE_INFINITY, stopped).then(
        () => ({ exitCode: 0, stdout: "", stderr: "" }),
        () => ({ exitCode: abort.signal.aborted ? 137 : 0, stdout: "", stderr: "" }),
      );
    }
    const result = await runCommand(argv, {
      ...this.containerShell(pod, container),
      signal: abort.signal,
      ...(terminate ? { terminate } : {}),
      onStdout: appendLog,
      onStderr: appendLog,
    });
    // A program that cannot start is the runtime's StartError: exit code 128.
    if (result.startFailure) {
      appendLog(result.startFailure.message + "\n");
      return { ...result, exitCode: 128, stderr: result.startFailure.message };
    }
    return result;
  }

  private containerShell(pod: StoredObject, container: Record<string, unknown>): ContainerShell {
    const env: Record<string, string> = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOSTNAME: pod.metadata.name, HOME: "/root" };
    for (const variable of list(container.env)) {
      if (typeof variable.value === "string") env[String(variable.name)] = variable.value;
      const fromSecret = record(record(variable.valueFrom).secretKeyRef);
      if (typeof fromSecret.name === "string" && typeof fromSecret.key === "string") {
        const encoded = record(this.store.peek(refs.secrets, pod.metadata.namespace, fromSecret.name)?.data)[fromSecret.key];
        // A real kubelet holds the container in CreateContainerConfigError until the key exists.
        if (typeof encoded === "string") env[String(variable.name)] = Buffer.from(encoded, "base64").toString("utf8");
      }
    }
    return {
      fs: this.fileSystemFor(pod, container),
      env,
      cwd: typeof container.workingDir === "string" ? container.workingDir : "/",
      sleep: (ms, signal) => this.options.clock.sleep(ms, signal),
      now: () => this.options.clock.now().getTime(),
      hostname: pod.metadata.name,
    };
  }

  private fileSystemFor(pod: StoredObject, container: Record<string, unknown>): PodFileSystem {
    const volumes = list(record(pod.spec).volumes);
    const mounts: VolumeMount[] = [];
    for (const mount of list(container.volumeMounts)) {
      const volume = volumes.find((one) => one.name === mount.name);
      if (!volume) continue;
      const data = this.volumeData(pod, volume);
      if (!data) continue;
      mounts.push({ mountPath: String(mount.mountPath), volume: data, readOnly: mount.readOnly === true, ...(typeof mount.subPath === "string" && mount.subPath ? { subPath: mount.subPath } : {}) });
    }
    const securityContext = record(container.securityContext);
    return new PodFileSystem({
      root: this.options.volumes.containerRoot(pod.metadata.uid, String(container.name), String(container.image)),
      mounts,
      readOnlyRoot: securityContext.readOnlyRootFilesystem === true,
      clock: () => this.options.clock.now().getTime(),
    });
  }

  private volumeData(pod: StoredObject, volume: Record<string, unknown>) {
    if (volume.emptyDir !== undefined) return this.options.volumes.emptyDir(pod.metadata.uid, String(volume.name));
    const claimName = record(volume.persistentVolumeClaim).claimName;
    if (typeof claimName === "string") {
      const claim = this.store.peek(refs.claims, pod.metadata.namespace, claimName);
      const volumeName = record(claim?.spec).volumeName;
      if (typeof volumeName === "string") return this.options.volumes.persistentVolume(volumeName);
    }
    return undefined;
  }

  private unboundClaim(pod: StoredObject): string | undefined {
    for (const volume of list(record(pod.spec).volumes)) {
      const claimName = record(volume.persistentVolumeClaim).claimName;
      if (typeof claimName !== "string") continue;
      const claim = this.store.peek(refs.claims, pod.metadata.namespace, claimName);
      if (record(claim?.status).phase !== "Bound") return claimName;
    }
    return undefined;
  }

  private async pull(pod: StoredObject, image: string): Promise<void> {
    const nodeName = nodeNameOf(pod)!;
    const cache = this.pulled.get(nodeName) ?? new Set<string>();
    this.pulled.set(nodeName, cache);
    if (cache.has(image)) {
      this.event(pod, "Normal", "Pulled", `Container image "${image}" already present on machine`);
      return;
    }
    const pullMs = this.options.imagePullMs ?? 2_000;
    this.event(pod, "Normal", "Pulling", `Pulling image "${image}"`);
    await this.options.clock.sleep(pullMs);
    cache.add(image);
    const seconds = `${(pullMs / 1000).toFixed(3)}s`;
    this.event(pod, "Normal", "Pulled", `Successfully pulled image "${image}" in ${seconds} (${seconds} including waiting). Image size: 104857600 bytes.`);
  }

  private current(runtime: PodRuntime): StoredObject | undefined {
    const { namespace, name } = splitKey(runtime.key);
    const pod = this.store.peek(refs.pods, namespace, name);
    return pod && pod.metadata.uid === runtime.uid ? pod : undefined;
  }

  private updateStatus(runtime: PodRuntime, change: (next: StoredObject) => void): void {
    const pod = this.current(runtime);
    if (!pod) return;
    const next = clone(pod);
    change(next);
    if (!deepEqual(next.status, pod.status)) this.store.update(refs.pods, next);
  }

  /** Something went wrong behind a pod's back (the pod vanished, a write conflicted): say so on it. */
  private failed(pod: StoredObject, error: unknown): void {
    try {
      this.event(pod, "Warning", "Failed", String((error as Error)?.message ?? error));
    } catch {
      // The pod or its namespace is gone: nobody is left to tell.
    }
  }

  private event(pod: StoredObject, type: "Normal" | "Warning", reason: string, message: string): void {
    this.options.recorder.record(pod, type, reason, message, COMPONENT, nodeNameOf(pod));
  }

  private hostIp(nodeName: string): string {
    const node = this.store.peek(refs.nodes, undefined, nodeName);
    const address = list(record(node?.status).addresses).find((entry) => entry.type === "InternalIP");
    return typeof address?.address === "string" ? address.address : "172.18.0.2";
  }

  private reserveIp(nodeName: string, ip: string, runtime: PodRuntime): void {
    const host = Number(ip.split(".")[3]);
    if (!Number.isInteger(host)) return;
    const used = this.ipsInUse.get(nodeName) ?? new Set<number>();
    this.ipsInUse.set(nodeName, used);
    used.add(host);
    runtime.releaseIp = () => used.delete(host);
  }

  private allocateIp(nodeName: string, runtime: PodRuntime): string {
    const third = Number(/(\d+)$/.exec(nodeName)?.[1] ?? 0) % 256;
    const used = this.ipsInUse.get(nodeName) ?? new Set<number>();
    this.ipsInUse.set(nodeName, used);
    let host = 2;
    while (used.has(host) && host < 254) host++;
    used.add(host);
    runtime.releaseIp = () => used.delete(host);
    return `10.244.${third}.${host}`;
  }
}

/** restartPolicy: Always restarts every exit, OnFailure only a failed one, Never none. */
function willRestart(pod: StoredObject, exitCode: number): boolean {
  const policy = String(record(pod.spec).restartPolicy ?? "Always");
  return policy === "Always" || (policy === "OnFailure" && exitCode !== 0);
}

/** A Status as the body of a refused exec upgrade. */
function refusal(error: StatusError) {
  const { status, message, reason, details, code } = error.status;
  return { status, message, reason, details, code };
}
