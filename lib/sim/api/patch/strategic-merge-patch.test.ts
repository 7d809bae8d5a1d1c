import { describe, expect, it } from "vitest";
import { PatchError, unsupportedMediaType } from "./errors.ts";
import type { JsonObject } from "./json-value.ts";
import { applyStrategicMergePatch } from "./strategic-merge-patch.ts";
import { NODE, POD, PERSISTENT_VOLUME_CLAIM, strategicMergePatchSchemaFor, supportsStrategicMergePatch, type PatchSchema } from "./strategic-schema.ts";

function failure(run: () => unknown): PatchError {
  try {
    run();
  } catch (error) {
    if (error instanceof PatchError) return error;
    throw error;
  }
  throw new Error("expected a PatchError");
}

const condition = (type: string, status: string, extra: JsonObject = {}): JsonObject => ({ type, status, ...extra });

interface Case {
  name: string;
  schema: PatchSchema;
  target: JsonObject;
  patch: JsonObject;
  expected: JsonObject;
}

const cases: Case[] = [
  {
    name: "kubectl cordon: sets spec.unschedulable and keeps the rest",
    schema: NODE,
    target: { metadata: { name: "worker-1" }, spec: { podCIDR: "10.244.1.0/24", taints: [{ key: "gpu", effect: "NoSchedule" }] } },
    patch: { spec: { unschedulable: true } },
    expected: { metadata: { name: "worker-1" }, spec: { podCIDR: "10.244.1.0/24", taints: [{ key: "gpu", effect: "NoSchedule" }], unschedulable: true } },
  },
  {
    name: "kubectl uncordon: null removes spec.unschedulable",
    schema: NODE,
    target: { metadata: { name: "worker-1" }, spec: { unschedulable: true } },
    patch: { spec: { unschedulable: null } },
    expected: { metadata: { name: "worker-1" }, spec: {} },
  },
  {
    name: "node taints have no patch strategy: the list is replaced",
    schema: NODE,
    target: { spec: { taints: [{ key: "a", effect: "NoSchedule" }, { key: "b", effect: "NoExecute" }] } },
    patch: { spec: { taints: [{ key: "node.kubernetes.io/unreachable", effect: "NoExecute" }] } },
    expected: { spec: { taints: [{ key: "node.kubernetes.io/unreachable", effect: "NoExecute" }] } },
  },
  {
    name: "node status conditions upsert by type, addresses merge by type",
    schema: NODE,
    target: {
      status: {
        conditions: [condition("MemoryPressure", "False"), condition("Ready", "True", { reason: "KubeletReady" })],
        addresses: [
          { type: "InternalIP", address: "10.0.0.1" },
          { type: "Hostname", address: "worker-1" },
        ],
      },
    },
    patch: { status: { conditions: [condition("Ready", "Unknown", { reason: "NodeStatusUnknown" })], addresses: [{ type: "InternalIP", address: "10.0.0.9" }] } },
    expected: {
      status: {
        conditions: [condition("MemoryPressure", "False"), condition("Ready", "Unknown", { reason: "NodeStatusUnknown" })],
        addresses: [
          { type: "InternalIP", address: "10.0.0.9" },
          { type: "Hostname", address: "worker-1" },
        ],
      },
    },
  },
  {
    name: "pod status condition upsert by type updates in place",
    schema: POD,
    target: { status: { phase: "Running", conditions: [condition("PodScheduled", "True"), condition("Ready", "False")] } },
    patch: { status: { conditions: [condition("Ready", "True", { lastTransitionTime: "2025-01-01T00:00:00Z" })] } },
    expected: { status: { phase: "Running", conditions: [condition("PodScheduled", "True"), condition("Ready", "True", { lastTransitionTime: "2025-01-01T00:00:00Z" })] } },
  },
  {
    name: "a new pod condition comes before the live ones the patch does not mention (the real ordering)",
    schema: POD,
    target: { status: { conditions: [condition("PodScheduled", "True"), condition("Ready", "True")] } },
    patch: { status: { conditions: [condition("DisruptionTarget", "True", { reason: "EvictionByEvictionAPI" })] } },
    expected: { status: { conditions: [condition("DisruptionTarget", "True", { reason: "EvictionByEvictionAPI" }), condition("PodScheduled", "True"), condition("Ready", "True")] } },
  },
  {
    name: "containerStatuses have no patch strategy: the list is replaced",
    schema: POD,
    target: { status: { containerStatuses: [{ name: "a", ready: false }, { name: "b", ready: false }] } },
    patch: { status: { containerStatuses: [{ name: "a", ready: true }] } },
    expected: { status: { containerStatuses: [{ name: "a", ready: true }] } },
  },
  {
    name: "container env merges by name",
    schema: POD,
    target: { spec: { containers: [{ name: "agent", image: "img:1", env: [{ name: "A", value: "1" }, { name: "B", value: "2" }] }] } },
    patch: { spec: { containers: [{ name: "agent", env: [{ name: "B", value: "3" }, { name: "C", value: "4" }] }] } },
    expected: { spec: { containers: [{ name: "agent", image: "img:1", env: [{ name: "A", value: "1" }, { name: "B", value: "3" }, { name: "C", value: "4" }] }] } },
  },
  {
    name: "container image set by name, other containers untouched",
    schema: POD,
    target: { spec: { containers: [{ name: "agent", image: "img:1" }, { name: "sidecar", image: "side:1" }] } },
    patch: { spec: { containers: [{ name: "sidecar", image: "side:2" }] } },
    expected: { spec: { containers: [{ name: "agent", image: "img:1" }, { name: "sidecar", image: "side:2" }] } },
  },
  {
    name: "$patch: delete removes a container by name",
    schema: POD,
    target: { spec: { containers: [{ name: "agent", image: "img:1" }, { name: "debug", image: "busybox" }] } },
    patch: { spec: { containers: [{ name: "debug", $patch: "delete" }] } },
    expected: { spec: { containers: [{ name: "agent", image: "img:1" }] } },
  },
  {
    name: "$patch: replace in a list replaces it with the patch's other items",
    schema: POD,
    target: { spec: { containers: [{ name: "a", image: "x" }, { name: "b", image: "y" }] } },
    patch: { spec: { containers: [{ name: "c", image: "z" }, { $patch: "replace" }] } },
    expected: { spec: { containers: [{ name: "c", image: "z" }] } },
  },
  {
    name: "ports merge by containerPort, volumeMounts by mountPath",
    schema: POD,
    target: { spec: { containers: [{ name: "a", ports: [{ containerPort: 80, name: "http" }], volumeMounts: [{ name: "workspace", mountPath: "/sandbox" }] }] } },
    patch: { spec: { containers: [{ name: "a", ports: [{ containerPort: 80, protocol: "TCP" }], volumeMounts: [{ name: "cache", mountPath: "/cache" }] }] } },
    expected: {
      spec: {
        containers: [
          {
            name: "a",
            ports: [{ containerPort: 80, name: "http", protocol: "TCP" }],
            volumeMounts: [
              { name: "cache", mountPath: "/cache" },
              { name: "workspace", mountPath: "/sandbox" },
            ],
          },
        ],
      },
    },
  },
  {
    name: "finalizers: $deleteFromPrimitiveList removes values",
    schema: POD,
    target: { metadata: { name: "p", finalizers: ["berth.dev/claim", "kubernetes.io/pvc-protection", "example.com/x"] } },
    patch: { metadata: { "$deleteFromPrimitiveList/finalizers": ["kubernetes.io/pvc-protection"] } },
    expected: { metadata: { name: "p", finalizers: ["berth.dev/claim", "example.com/x"] } },
  },
  {
    name: "finalizers: a merging primitive list is a set union, new values first",
    schema: POD,
    target: { metadata: { finalizers: ["a"] } },
    patch: { metadata: { finalizers: ["b", "a"] } },
    expected: { metadata: { finalizers: ["b", "a"] } },
  },
  {
    name: "finalizers: deleting from a list that does not exist creates nothing",
    schema: POD,
    target: { metadata: { name: "p" } },
    patch: { metadata: { "$deleteFromPrimitiveList/finalizers": ["x"] } },
    expected: { metadata: { name: "p" } },
  },
  {
    name: "ownerReferences merge by uid",
    schema: PERSISTENT_VOLUME_CLAIM,
    target: { metadata: { ownerReferences: [{ apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", name: "box", uid: "u1", controller: true }] } },
    patch: { metadata: { ownerReferences: [{ uid: "u1", blockOwnerDeletion: true }, { apiVersion: "v1", kind: "Pod", name: "p", uid: "u2" }] } },
    expected: {
      metadata: {
        ownerReferences: [
          { apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", name: "box", uid: "u1", controller: true, blockOwnerDeletion: true },
          { apiVersion: "v1", kind: "Pod", name: "p", uid: "u2" },
        ],
      },
    },
  },
  {
    name: "ownerReferences: $patch delete by uid",
    schema: POD,
    target: { metadata: { ownerReferences: [{ uid: "u1", name: "a" }, { uid: "u2", name: "b" }] } },
    patch: { metadata: { ownerReferences: [{ uid: "u1", $patch: "delete" }] } },
    expected: { metadata: { ownerReferences: [{ uid: "u2", name: "b" }] } },
  },
  {
    name: "PVC status conditions merge by type",
    schema: PERSISTENT_VOLUME_CLAIM,
    target: { status: { phase: "Bound", conditions: [condition("Resizing", "True")] } },
    patch: { status: { conditions: [condition("Resizing", "False")] } },
    expected: { status: { phase: "Bound", conditions: [condition("Resizing", "False")] } },
  },
  {
    name: "labels merge, null removes one",
    schema: POD,
    target: { metadata: { labels: { app: "agent", tier: "a" }, annotations: { keep: "1", drop: "2" } } },
    patch: { metadata: { labels: { tier: "b" }, annotations: { drop: null } } },
    expected: { metadata: { labels: { app: "agent", tier: "b" }, annotations: { keep: "1" } } },
  },
  {
    name: "$patch: replace on a map replaces it",
    schema: POD,
    target: { metadata: { labels: { a: "1", b: "2" } } },
    patch: { metadata: { labels: { $patch: "replace", c: "3" } } },
    expected: { metadata: { labels: { c: "3" } } },
  },
  {
    name: "$patch: delete on a map empties it",
    schema: POD,
    target: { spec: { affinity: { nodeAffinity: { x: 1 } }, nodeName: "n" } },
    patch: { spec: { affinity: { $patch: "delete" } } },
    expected: { spec: { affinity: {}, nodeName: "n" } },
  },
  {
    name: "nulls inside a newly added subtree are dropped",
    schema: POD,
    target: { spec: {} },
    patch: { spec: { securityContext: { runAsUser: 1000, runAsGroup: null } } },
    expected: { spec: { securityContext: { runAsUser: 1000 } } },
  },
  {
    name: "a new key whose value carries $patch is dropped (removeDirectives)",
    schema: POD,
    target: { spec: {} },
    patch: { spec: { dnsConfig: { $patch: "replace", nameservers: ["1.1.1.1"] } } },
    expected: { spec: {} },
  },
  {
    name: "$setElementOrder reorders a merging list",
    schema: POD,
    target: { spec: { containers: [{ name: "a", image: "1" }, { name: "b", image: "2" }] } },
    patch: { spec: { "$setElementOrder/containers": [{ name: "b" }, { name: "a" }], containers: [{ name: "a", image: "3" }] } },
    expected: { spec: { containers: [{ name: "b", image: "2" }, { name: "a", image: "3" }] } },
  },
  {
    name: "$setElementOrder of a primitive list",
    schema: POD,
    target: { metadata: { finalizers: ["x", "y"] } },
    patch: { metadata: { "$setElementOrder/finalizers": ["y", "x"] } },
    expected: { metadata: { finalizers: ["y", "x"] } },
  },
  {
    name: "$retainKeys clears the volume source it does not name",
    schema: POD,
    target: { spec: { volumes: [{ name: "workspace", emptyDir: {} }] } },
    patch: { spec: { volumes: [{ name: "workspace", $retainKeys: ["name", "persistentVolumeClaim"], persistentVolumeClaim: { claimName: "workspace-box" } }] } },
    expected: { spec: { volumes: [{ name: "workspace", persistentVolumeClaim: { claimName: "workspace-box" } }] } },
  },
  {
    name: "imagePullSecrets merge by name; tolerations are replaced",
    schema: POD,
    target: { spec: { imagePullSecrets: [{ name: "a" }], tolerations: [{ key: "x", operator: "Exists" }] } },
    patch: { spec: { imagePullSecrets: [{ name: "b" }], tolerations: [{ key: "y", operator: "Exists" }] } },
    expected: { spec: { imagePullSecrets: [{ name: "b" }, { name: "a" }], tolerations: [{ key: "y", operator: "Exists" }] } },
  },
  {
    name: "a value of another type replaces the old one",
    schema: POD,
    target: { spec: { nodeSelector: { a: "b" } } },
    patch: { spec: { nodeSelector: "x" } },
    expected: { spec: { nodeSelector: "x" } },
  },
  {
    name: "a top-level $patch: replace replaces the object",
    schema: POD,
    target: { metadata: { name: "p" }, spec: { nodeName: "n" } },
    patch: { $patch: "replace", metadata: { name: "q" } },
    expected: { metadata: { name: "q" } },
  },
];

describe("applyStrategicMergePatch", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, { schema, target, patch, expected }) => {
    expect(applyStrategicMergePatch(target, patch, schema)).toEqual(expected);
  });

  it("does not change its arguments", () => {
    const target: JsonObject = { spec: { containers: [{ name: "a", env: [{ name: "A", value: "1" }] }] } };
    const patch: JsonObject = { spec: { containers: [{ name: "a", env: [{ name: "A", $patch: "delete" }] }] } };
    const before = structuredClone({ target, patch });
    expect(applyStrategicMergePatch(target, patch, POD)).toEqual({ spec: { containers: [{ name: "a", env: [] }] } });
    expect({ target, patch }).toEqual(before);
  });

  it("treats a null patch as no change", () => {
    expect(applyStrategicMergePatch({ a: 1 }, null, POD)).toEqual({ a: 1 });
  });

  it("drops directive keys that end up in the result, as the typed decode does", () => {
    const result = applyStrategicMergePatch({ spec: {} }, { spec: { containers: [{ name: "a", env: [{ name: "X", $patch: "delete" }], "$setElementOrder/env": [] }] } }, POD);
    expect(result).toEqual({ spec: { containers: [{ name: "a", env: [] }] } });
  });

  describe("errors, as the apiserver answers them", () => {
    it("a patch that is not an object: 400 with Go's decoding error", () => {
      expect(failure(() => applyStrategicMergePatch({}, [], POD))).toMatchObject({
        code: 400,
        reason: "BadRequest",
        message: "json: cannot unmarshal array into Go value of type map[string]interface {}",
      });
    });

    it("an item without its merge key: 500 with mergepatch's message", () => {
      const error = failure(() => applyStrategicMergePatch({ spec: { containers: [{ name: "a" }] } }, { spec: { containers: [{ image: "nginx" }] } }, POD));
      expect(error).toMatchObject({ code: 500, reason: "", message: "map: map[image:nginx] does not contain declared merge key: name" });
    });

    it("a delete directive without the merge key: 500", () => {
      const error = failure(() => applyStrategicMergePatch({ spec: { containers: [{ name: "a" }] } }, { spec: { containers: [{ $patch: "delete" }] } }, POD));
      expect(error.message).toBe("map: map[$patch:delete] does not contain declared merge key: name");
    });

    it("$patch: merge on a map is an unknown patch type", () => {
      const error = failure(() => applyStrategicMergePatch({ metadata: { labels: {} } }, { metadata: { labels: { $patch: "merge", a: "b" } } }, POD));
      expect(error).toMatchObject({ code: 500, message: "unknown patch type: merge in map: map[$patch:merge a:b]" });
    });

    it("$patch: merge in a list is not supported yet", () => {
      const error = failure(() => applyStrategicMergePatch({ spec: { containers: [{ name: "a" }] } }, { spec: { containers: [{ name: "a", $patch: "merge" }] } }, POD));
      expect(error.message).toBe("merging lists cannot yet be specified in the patch");
    });

    it("a malformed $deleteFromPrimitiveList key: 400", () => {
      const error = failure(() => applyStrategicMergePatch({ metadata: { finalizers: ["a"] } }, { metadata: { $deleteFromPrimitiveListfinalizers: ["a"] } }, POD));
      expect(error).toMatchObject({ code: 400, reason: "BadRequest", message: "invalid patch format of primitive list" });
    });

    it("$retainKeys that is not a list, or misses a patched key: 400", () => {
      expect(failure(() => applyStrategicMergePatch({ spec: {} }, { spec: { $retainKeys: "x" } }, POD))).toMatchObject({ code: 400, message: "invalid patch format of retainKeys" });
      expect(failure(() => applyStrategicMergePatch({ spec: {} }, { spec: { $retainKeys: ["a"], b: 1 } }, POD))).toMatchObject({ code: 400, message: "invalid patch format of retainKeys" });
    });

    it("a $setElementOrder list that contradicts the patch list: 500", () => {
      const error = failure(() =>
        applyStrategicMergePatch({ spec: { containers: [{ name: "a" }, { name: "b" }] } }, { spec: { "$setElementOrder/containers": [{ name: "a" }], containers: [{ name: "b", image: "x" }] } }, POD),
      );
      expect(error.code).toBe(500);
      expect(error.message).toBe("the order in patch list:\n[map[image:x name:b]]\n doesn't match $setElementOrder list:\n[map[name:a]]");
    });

    it("a list of lists: 422 with the generic message", () => {
      const error = failure(() => applyStrategicMergePatch({ metadata: { finalizers: [] } }, { metadata: { finalizers: [["a"]] } }, POD));
      expect(error).toMatchObject({ code: 422, reason: "Invalid", detail: "lists of lists are not supported" });
    });
  });
});

describe("strategic merge patch support by kind", () => {
  it("knows the built-in kinds Berth and kubectl patch", () => {
    expect(strategicMergePatchSchemaFor("v1", "Pod")).toBe(POD);
    expect(strategicMergePatchSchemaFor("v1", "Node")).toBe(NODE);
    for (const [apiVersion, kind] of [
      ["v1", "PersistentVolumeClaim"],
      ["v1", "PersistentVolume"],
      ["v1", "Namespace"],
      ["v1", "Event"],
      ["policy/v1", "PodDisruptionBudget"],
      ["coordination.k8s.io/v1", "Lease"],
      ["storage.k8s.io/v1", "StorageClass"],
    ] as const) {
      expect(supportsStrategicMergePatch(apiVersion, kind)).toBe(true);
    }
  });

  it("refuses custom resources, which the apiserver answers with 415", () => {
    expect(supportsStrategicMergePatch("agents.x-k8s.io/v1beta1", "Sandbox")).toBe(false);
    expect(supportsStrategicMergePatch("agents.x-k8s.io/v1alpha1", "Sandbox")).toBe(false);
    expect(supportsStrategicMergePatch("snapshot.storage.k8s.io/v1", "VolumeSnapshot")).toBe(false);
    expect(supportsStrategicMergePatch("policy/v1", "Pod")).toBe(false);
    expect(unsupportedMediaType().toStatus()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
      reason: "UnsupportedMediaType",
      code: 415,
    });
  });

  it("applies metadata rules to every built-in kind", () => {
    const schema = strategicMergePatchSchemaFor("coordination.k8s.io/v1", "Lease");
    if (!schema) throw new Error("no schema");
    expect(applyStrategicMergePatch({ metadata: { finalizers: ["a", "b"] } }, { metadata: { "$deleteFromPrimitiveList/finalizers": ["a"] } }, schema)).toEqual({ metadata: { finalizers: ["b"] } });
  });
});
