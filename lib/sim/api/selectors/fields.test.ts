import { describe, expect, it } from "vitest";
import { SelectorError } from "./errors.ts";
import {
  EVENT_FIELDS,
  NAMESPACE_FIELDS,
  NODE_FIELDS,
  PERSISTENT_VOLUME_CLAIM_FIELDS,
  PERSISTENT_VOLUME_FIELDS,
  POD_FIELDS,
  parseFieldSelectorFor,
  selectableFieldsFor,
  type SelectableFields,
} from "./field-sets.ts";
import { escapeFieldValue, parseFieldRequirements, parseFieldSelector, unescapeFieldValue } from "./fields.ts";

function parseError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SelectorError) return error.message;
    throw error;
  }
  throw new Error("expected a SelectorError");
}

const pod = (name: string, nodeName?: string, phase = "Running") => ({
  metadata: { name, namespace: "sandboxes" },
  spec: { ...(nodeName ? { nodeName } : {}), restartPolicy: "Never", schedulerName: "default-scheduler", serviceAccountName: "default" },
  status: { phase, podIPs: [{ ip: "10.244.1.7" }], podIP: "10.244.1.7" },
});

const event = {
  metadata: { name: "box.17f", namespace: "sandboxes" },
  involvedObject: { kind: "Pod", namespace: "sandboxes", name: "box", uid: "u1", apiVersion: "v1", resourceVersion: "42", fieldPath: "spec.containers{agent}" },
  reason: "Evicted",
  type: "Warning",
  source: { component: "kubelet", host: "worker-1" },
  reportingComponent: "kubelet",
};

describe("parseFieldSelector", () => {
  const cases: Array<[string, SelectableFields, unknown, boolean]> = [
    ["", POD_FIELDS, pod("a"), true],
    ["spec.nodeName=worker-1", POD_FIELDS, pod("a", "worker-1"), true],
    ["spec.nodeName=worker-1", POD_FIELDS, pod("a", "worker-2"), false],
    ["spec.nodeName=", POD_FIELDS, pod("a"), true],
    ["spec.nodeName!=", POD_FIELDS, pod("a"), false],
    ["spec.nodeName==worker-1", POD_FIELDS, pod("a", "worker-1"), true],
    ["spec.host=worker-1", POD_FIELDS, pod("a", "worker-1"), true],
    ["spec.nodeName=worker-1,status.phase!=Succeeded,status.phase!=Failed", POD_FIELDS, pod("a", "worker-1"), true],
    ["spec.nodeName=worker-1,status.phase!=Succeeded,status.phase!=Failed", POD_FIELDS, pod("a", "worker-1", "Failed"), false],
    ["metadata.name=a,metadata.namespace=sandboxes", POD_FIELDS, pod("a"), true],
    ["status.podIP=10.244.1.7", POD_FIELDS, pod("a"), true],
    ["spec.hostNetwork=false", POD_FIELDS, pod("a"), true],
    ["spec.restartPolicy=Never,spec.schedulerName=default-scheduler,spec.serviceAccountName=default", POD_FIELDS, pod("a"), true],
    ["status.nominatedNodeName=", POD_FIELDS, pod("a"), true],
    ["involvedObject.name=box,involvedObject.kind=Pod,involvedObject.uid=u1", EVENT_FIELDS, event, true],
    ["involvedObject.namespace=sandboxes,involvedObject.apiVersion=v1,involvedObject.resourceVersion=42", EVENT_FIELDS, event, true],
    ["involvedObject.fieldPath=spec.containers{agent}", EVENT_FIELDS, event, true],
    ["reason=Evicted,type=Warning,source=kubelet,reportingComponent=kubelet", EVENT_FIELDS, event, true],
    ["involvedObject.name=other", EVENT_FIELDS, event, false],
    ["spec.unschedulable=true", NODE_FIELDS, { metadata: { name: "n" }, spec: { unschedulable: true } }, true],
    ["spec.unschedulable=false", NODE_FIELDS, { metadata: { name: "n" }, spec: {} }, true],
    ["metadata.name=n", NODE_FIELDS, { metadata: { name: "n" } }, true],
    ["status.phase=Active", NAMESPACE_FIELDS, { metadata: { name: "sandboxes" }, status: { phase: "Active" } }, true],
    ["metadata.name=workspace-box,metadata.namespace=sandboxes", PERSISTENT_VOLUME_CLAIM_FIELDS, { metadata: { name: "workspace-box", namespace: "sandboxes" } }, true],
    ["metadata.namespace=", PERSISTENT_VOLUME_FIELDS, { metadata: { name: "pv-1" } }, true],
    ["metadata.namespace=x", PERSISTENT_VOLUME_FIELDS, { metadata: { name: "pv-1" } }, false],
  ];

  it.each(cases)("%j → %s", (text, selectable, object, expected) => {
    expect(parseFieldSelectorFor(text, selectable).matches(object)).toBe(expected);
  });

  it("unescapes \\, \\, and \\= in values and escapes them when printing", () => {
    const selector = parseFieldSelectorFor(String.raw`metadata.name=a\,b\=c\\d`, POD_FIELDS);
    expect(selector.requirements).toEqual([{ field: "metadata.name", operator: "=", value: "a,b=c\\d" }]);
    expect(selector.matches(pod("a,b=c\\d"))).toBe(true);
    expect(selector.toString()).toBe(String.raw`metadata.name=a\,b\=c\\d`);
    expect(unescapeFieldValue(escapeFieldValue("x=y,z\\"))).toBe("x=y,z\\");
  });

  it("evaluates terms sorted, and prints them that way", () => {
    expect(parseFieldSelectorFor("status.phase=Running,metadata.name==a", POD_FIELDS).toString()).toBe("metadata.name=a,status.phase=Running");
    expect(parseFieldRequirements("b=1,,a!=2")).toEqual([
      { field: "a", operator: "!=", value: "2" },
      { field: "b", operator: "=", value: "1" },
    ]);
  });

  it("says when a field is pinned to one value", () => {
    const selector = parseFieldSelectorFor("spec.nodeName=worker-1,status.phase!=Failed", POD_FIELDS);
    expect(selector.requiresExactMatch("spec.nodeName")).toBe("worker-1");
    expect(selector.requiresExactMatch("status.phase")).toBeUndefined();
    expect(parseFieldSelectorFor("", POD_FIELDS).empty()).toBe(true);
  });

  const errors: Array<[string, SelectableFields, string]> = [
    ["foo=bar", POD_FIELDS, "field label not supported: foo"],
    ["zz=1,aa=1", POD_FIELDS, "field label not supported: aa"],
    [" metadata.name=a", POD_FIELDS, "field label not supported:  metadata.name"],
    ["metadata.namespace=x", NODE_FIELDS, "field label not supported: metadata.namespace"],
    ["metadata.namespace=x", NAMESPACE_FIELDS, "field label not supported: metadata.namespace"],
    ["spec.volumeName=pv-1", PERSISTENT_VOLUME_CLAIM_FIELDS, '"spec.volumeName" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    ["nonsense", POD_FIELDS, "invalid selector: 'nonsense'; can't understand 'nonsense'"],
    ["a=1,nonsense", POD_FIELDS, "invalid selector: 'a=1,nonsense'; can't understand 'nonsense'"],
    ["metadata.name=a=b", POD_FIELDS, "invalid field selector: unescaped character in value: 61"],
    [String.raw`metadata.name=a\x`, POD_FIELDS, String.raw`invalid field selector: invalid escape sequence: \x`],
    ["metadata.name=a\\", POD_FIELDS, "invalid field selector: invalid escape sequence: \\"],
  ];

  it.each(errors)("refuses %j with the apiserver's message", (text, selectable, message) => {
    expect(parseError(() => parseFieldSelectorFor(text, selectable))).toBe(message);
  });

  it("takes a plain map of getters too", () => {
    const selector = parseFieldSelector<{ name: string }>("x=1", { x: (object) => object.name });
    expect(selector.matches({ name: "1" })).toBe(true);
    expect(parseError(() => parseFieldSelector("y=1", { x: () => "" }))).toBe("field label not supported: y");
  });
});

describe("selectableFieldsFor", () => {
  it("knows the built-in kinds", () => {
    expect(selectableFieldsFor("v1", "Pod")).toBe(POD_FIELDS);
    expect(selectableFieldsFor("v1", "Event")).toBe(EVENT_FIELDS);
    expect(selectableFieldsFor("v1", "Node")).toBe(NODE_FIELDS);
    expect(selectableFieldsFor("v1", "PersistentVolumeClaim")).toBe(PERSISTENT_VOLUME_CLAIM_FIELDS);
    expect(Object.keys(selectableFieldsFor("policy/v1", "PodDisruptionBudget").fields)).toEqual(["metadata.name", "metadata.namespace"]);
  });

  it("gives custom resources metadata.name (and metadata.namespace when namespaced) only", () => {
    const sandbox = selectableFieldsFor("agents.x-k8s.io/v1beta1", "Sandbox");
    expect(Object.keys(sandbox.fields)).toEqual(["metadata.name", "metadata.namespace"]);
    expect(parseFieldSelectorFor("metadata.name=box", sandbox).matches({ metadata: { name: "box" } })).toBe(true);
    expect(parseError(() => parseFieldSelectorFor("spec.operatingMode=Running", sandbox))).toBe("field label not supported: spec.operatingMode");
    const snapshotClass = selectableFieldsFor("snapshot.storage.k8s.io/v1", "VolumeSnapshotClass", { namespaced: false });
    expect(parseError(() => parseFieldSelectorFor("metadata.namespace=x", snapshotClass))).toBe("field label not supported: metadata.namespace");
  });
});
