import type { Clock } from "../clock.ts";
import {
  controllerOf, findCondition, fnv1a32, isPodReady, keyOf, list, ownerReferenceTo, podPhase, record, refs, setCondition, splitKey, status, timestamp,
  type Condition,
} from "../k8s-objects.ts";
import { clone, deepEqual, type KubeObject, type StoredObject } from "../objects.ts";
import { resourceFor } from "../api/resources.ts";
import { admitCreate } from "../api/admission.ts";
import { podDeletionGrace } from "../api/strategies.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";

// The agent-sandbox controller (sigs.k8s.io/agent-sandbox v0.5): one pod named after the
// Sandbox from its podTemplate, one claim per volumeClaimTemplate named <template>-<sandbox>,
// both owned by the Sandbox; a deleted pod comes back with the same name and a new uid; a
// Failed pod is left alone; Suspended deletes the pod and keeps the claims.

export const SANDBOX_NAME_HASH_LABEL = "agents.x-k8s.io/sandbox-name-hash";

const SANDBOXES = "agents.x-k8s.io/sandboxes";

export class AgentSandboxController implements Reconciler {
  readonly name = "agent-sandbox";

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
  ) {}

  initialKeys(): string[] {
    return this.store.list(refs.sandboxes).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.resource === SANDBOXES) return [keyOf(event.object)];
    if (event.resource === "pods" || event.resource === "persistentvolumeclaims") {
      const owner = controllerOf(event.object);
      if (owner?.kind === "Sandbox") return [`${event.object.metadata.namespace}/${owner.name}`];
    }
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const sandbox = this.store.peek(refs.sandboxes, namespace, name);
    if (!sandbox || sandbox.metadata.deletionTimestamp) return;
    const now = this.clock.now();
    const sandboxSpec = record(sandbox.spec);
    const hash = fnv1a32(name);

    const shutdownTime = typeof sandboxSpec.shutdownTime === "string" ? Date.parse(sandboxSpec.shutdownTime) : NaN;
    const expired = !Number.isNaN(shutdownTime) && shutdownTime <= now.getTime();
    if (expired && sandboxSpec.shutdownPolicy === "Delete") {
      this.store.delete(refs.sandboxes, namespace, name, {});
      return;
    }

    for (const template of list(sandboxSpec.volumeClaimTemplates)) this.ensureClaim(sandbox, template, hash);

    const suspended = sandboxSpec.operatingMode === "Suspended";
    let pod = this.store.peek(refs.pods, namespace, name);
    if (pod && controllerOf(pod)?.uid !== sandbox.metadata.uid) {
      return this.writeStatus(sandbox, pod, hash, { type: "Ready", status: "False", reason: "ReconcilerError", message: `pod ${name} exists and is not owned by this sandbox` });
    }
    if ((suspended || expired) && pod && !pod.metadata.deletionTimestamp) {
      this.store.delete(refs.pods, namespace, name, { gracePeriodSeconds: podDeletionGrace(pod) });
      pod = this.store.peek(refs.pods, namespace, name);
    }
    if (!suspended && !expired && !pod) pod = this.createPod(sandbox, hash);

    const phase = pod ? podPhase(pod) : undefined;
    let ready: Condition;
    if (expired) ready = { type: "Ready", status: "False", reason: "SandboxExpired", message: "Sandbox has expired" };
    else if (suspended) ready = { type: "Ready", status: "False", reason: "SandboxSuspended", message: "Sandbox is suspended" };
    else if (phase === "Failed") ready = { type: "Ready", status: "False", reason: "PodFailed", message: `Pod ${name} failed: ${record(pod!.status).reason ?? ""}`.trim() };
    else if (phase === "Succeeded") ready = { type: "Ready", status: "False", reason: "PodSucceeded", message: `Pod ${name} succeeded` };
    else if (pod && isPodReady(pod) && !pod.metadata.deletionTimestamp) ready = { type: "Ready", status: "True", reason: "DependenciesReady", message: "Pod is Ready" };
    else ready = { type: "Ready", status: "False", reason: "DependenciesNotReady", message: pod ? `Pod ${name} is not Ready` : `Pod ${name} does not exist` };
    this.writeStatus(sandbox, pod, hash, ready);
    if (!Number.isNaN(shutdownTime) && !expired) return { requeueAfterMs: shutdownTime - now.getTime() };
  }

  private ensureClaim(sandbox: StoredObject, template: Record<string, unknown>, hash: string): void {
    const metadata = record(template.metadata);
    const claimName = `${metadata.name}-${sandbox.metadata.name}`;
    if (this.store.peek(refs.claims, sandbox.metadata.namespace, claimName)) return;
    const claim: KubeObject = {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        metadata: {
          name: claimName,
          namespace: sandbox.metadata.namespace,
          labels: { ...(metadata.labels as Record<string, string> | undefined), [SANDBOX_NAME_HASH_LABEL]: hash },
          ...(metadata.annotations ? { annotations: metadata.annotations as Record<string, string> } : {}),
          ownerReferences: [ownerReferenceTo(sandbox)],
        },
        spec: clone(record(template.spec)),
      };
    admitCreate(this.store, resourceFor("", "persistentvolumeclaims"), claim);
    try {
      this.store.create(refs.claims, claim);
    } catch (error) {
      if (!(error instanceof StatusError && error.status.reason === "AlreadyExists")) throw error;
    }
  }

  private createPod(sandbox: StoredObject, hash: string): StoredObject {
    const template = record(record(sandbox.spec).podTemplate);
    const templateMetadata = record(template.metadata);
    const podSpec = clone(record(template.spec));
    // A claim template's volume replaces any pod volume of the same name.
    const claimVolumes = list(record(sandbox.spec).volumeClaimTemplates).map((claimTemplate) => {
      const volumeName = String(record(claimTemplate.metadata).name);
      return { name: volumeName, persistentVolumeClaim: { claimName: `${volumeName}-${sandbox.metadata.name}` } };
    });
    const claimNames = new Set(claimVolumes.map((volume) => volume.name));
    podSpec.volumes = [...list(podSpec.volumes).filter((volume) => !claimNames.has(String(volume.name))), ...claimVolumes];
    const pod: KubeObject = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: sandbox.metadata.name,
        namespace: sandbox.metadata.namespace,
        labels: { ...(templateMetadata.labels as Record<string, string> | undefined), [SANDBOX_NAME_HASH_LABEL]: hash },
        ...(templateMetadata.annotations ? { annotations: templateMetadata.annotations as Record<string, string> } : {}),
        ownerReferences: [ownerReferenceTo(sandbox)],
      },
      spec: podSpec,
    };
    // Created as if through the API server, with its defaults and admission.
    admitCreate(this.store, resourceFor("", "pods"), pod);
    return this.store.create(refs.pods, pod);
  }

  private writeStatus(sandbox: StoredObject, pod: StoredObject | undefined, hash: string, ready: Condition): void {
    const next = clone(sandbox);
    const now = timestamp(this.clock.now());
    const sandboxStatus = status(next);
    setCondition(next, ready, now);
    const scheduled = pod ? findCondition(pod, "PodScheduled") : undefined;
    if (scheduled) setCondition(next, { type: "PodScheduled", status: scheduled.status, reason: scheduled.reason, message: scheduled.message }, now);
    const suspended = record(sandbox.spec).operatingMode === "Suspended";
    setCondition(
      next,
      suspended
        ? { type: "Suspended", status: pod ? "False" : "True", reason: pod ? "PodTerminating" : "PodTerminated", message: pod ? "Pod is terminating" : "Pod has been terminated" }
        : { type: "Suspended", status: "False", reason: "NotSuspended", message: "Sandbox is not suspended" },
      now,
    );
    const phase = pod ? podPhase(pod) : undefined;
    if (phase === "Failed" || phase === "Succeeded") {
      setCondition(next, { type: "Finished", status: "True", reason: phase === "Failed" ? "PodFailed" : "PodSucceeded", message: `Pod ${phase === "Failed" ? "failed" : "succeeded"}` }, now);
    } else {
      next.status = { ...sandboxStatus, conditions: list(record(next.status).conditions).filter((condition) => condition.type !== "Finished") };
    }
    const podStatus = record(pod?.status);
    Object.assign(status(next), {
      serviceFQDN: `${sandbox.metadata.name}.${sandbox.metadata.namespace}.svc.cluster.local`,
      service: sandbox.metadata.name,
      selector: `${SANDBOX_NAME_HASH_LABEL}=${hash}`,
      podIPs: pod && !pod.metadata.deletionTimestamp ? list(podStatus.podIPs).map((entry) => entry.ip) : [],
    });
    const nodeName = pod ? record(pod.spec).nodeName : undefined;
    if (typeof nodeName === "string") status(next).nodeName = nodeName;
    else delete status(next).nodeName;
    if (!deepEqual(next.status, sandbox.status)) this.store.update(refs.sandboxes, next);
  }
}
