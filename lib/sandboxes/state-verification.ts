import type { V1Pod } from "@kubernetes/client-node";
import { durableStateVerdict, type DurableState } from "../domain/durable-state.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { readDisruptionDetails } from "../disruption/disruption-details.ts";
import { AGENT_CONTAINER_NAME } from "../render/render-sandbox.ts";
import { readStateMarker, writeStateMarker, type MarkerTarget } from "./state-marker.ts";
import { storedWorkspace } from "../domain/stored-spec.ts";
import { berthLabelKeys } from "../domain/labels.ts";
import { WORKSPACE_VOLUME_NAME } from "../domain/workspace.ts";

// Whether durable state survived a disruption, decided by the marker: when a sandbox Berth made
// — itself, or from one of its templates and handed to a claim — becomes Ready in a replacement
// pod, the marker is read back (verdict), then written for the new pod; on its first Ready it is
// only written. Exec is slow next to a reconcile, so this runs beside the reconciler's queue;
// results wait here until the next reconcile stores them (the reconciler stays the one writer of
// a sandbox's status).

interface Results {
  verdict?: DurableState;
  markerWrittenAt?: string;
}

export class StateVerification {
  private readonly results = new Map<string, Results>();
  private readonly running = new Set<string>();

  constructor(
    private readonly options: {
      connection: ClusterConnection;
      /** The gateway's default workspace mount path, for specs that name none. */
      workspaceMountPath: string;
      /** Berth's label prefix: a template's pods carry its template label. */
      labelPrefix: string;
      /** Told when a result is ready to be stored. */
      onResult: (sandboxId: string) => void;
      now: () => Date;
      onError?: (error: unknown) => void;
    },
  ) {}

  /** The status's details with any result for its pod written in. */
  withResults(status: SandboxStatus): SandboxStatus {
    const podUid = status.podUid;
    const result = podUid ? this.results.get(podUid) : undefined;
    if (!podUid || !result) return status;
    return {
      ...status,
      details: {
        ...status.details,
        ...(result.verdict ? { durableState: result.verdict } : {}),
        ...(result.markerWrittenAt ? { stateMarker: { podUid, writtenAt: result.markerWrittenAt } } : {}),
      },
    };
  }

  /** Once stored, a result is the status's: forget it here. */
  stored(status: SandboxStatus): void {
    if (status.podUid && status.details.stateMarker?.podUid === status.podUid) this.results.delete(status.podUid);
  }

  /** Starts what the stored status says is still to do for a Ready pod. */
  follow(record: SandboxRecord, status: SandboxStatus, pod: V1Pod | null): void {
    const podUid = pod?.metadata?.uid;
    const target = this.target(record, status, pod);
    if (!target || status.phase !== "Ready" || !podUid || this.running.has(podUid)) return;
    if (status.details.stateMarker?.podUid === podUid || this.results.get(podUid)?.markerWrittenAt) return;
    const recovery = readDisruptionDetails(status.details).recovery;
    const replacement = recovery?.reason === "Recovered" && recovery.replacementPodUid === podUid;
    this.running.add(podUid);
    void this.verifyThenMark(record, target, podUid, replacement)
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.running.delete(podUid);
        this.options.onResult(record.id);
      });
  }

  private async verifyThenMark(record: SandboxRecord, target: MarkerTarget, podUid: string, replacement: boolean): Promise<void> {
    const result: Results = this.results.get(podUid) ?? {};
    this.results.set(podUid, result);
    if (replacement && !result.verdict) {
      const reading = await readStateMarker(this.options.connection, target);
      result.verdict = durableStateVerdict({ sandboxId: record.id, backend: record.workspaceBackend, reading, podUid, now: this.options.now() });
    }
    const writtenAt = this.options.now().toISOString();
    await writeStateMarker(this.options.connection, target, { sandboxId: record.id, podUid, writtenAt, writtenOn: "ready" });
    result.markerWrittenAt = writtenAt;
  }

  /**
   * Where the marker goes, or null for a sandbox Berth does not verify: one made outside Berth,
   * or a template's sandbox still waiting in its pool (its pod may be replaced freely). A
   * template's sandbox keeps its workspace where Berth rendered it, read from its pod.
   */
  private target(record: SandboxRecord, status: SandboxStatus, pod: V1Pod | null): MarkerTarget | null {
    const at = (mountPath: string) => ({ namespace: record.namespace, pod: record.name, container: AGENT_CONTAINER_NAME, mountPath });
    if (record.origin === "berth") return at(storedWorkspace(record.spec)?.mountPath ?? this.options.workspaceMountPath);
    const fromBerthTemplate = pod?.metadata?.labels?.[berthLabelKeys(this.options.labelPrefix).template] !== undefined;
    if (!status.details.handout?.claim || !fromBerthTemplate) return null;
    const agent = pod?.spec?.containers.find((container) => container.name === AGENT_CONTAINER_NAME);
    const mountPath = agent?.volumeMounts?.find((mount) => mount.name === WORKSPACE_VOLUME_NAME)?.mountPath;
    return mountPath ? at(mountPath) : null;
  }
}
