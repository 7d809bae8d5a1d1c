import { describe, expect, it } from "vitest";
import type { KubeObject, StoredObject } from "../objects.ts";
import { admitPodSecurity } from "./pod-security.ts";

const namespaceEnforcing = (level?: string) => ({ metadata: { name: "team", labels: level ? { "pod-security.kubernetes.io/enforce": level } : {} } }) as unknown as StoredObject;

const hardened = { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } };
const podOf = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: "v1", kind: "Pod", metadata: { name: "box", namespace: "team" }, spec });
const restrictedPod = (overrides: Record<string, unknown> = {}) =>
  podOf({ securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: "RuntimeDefault" } }, containers: [{ name: "agent", image: "x", securityContext: hardened }], ...overrides });

const refusal = (pod: KubeObject, level: string) => {
  try {
    admitPodSecurity(pod, namespaceEnforcing(level));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe("PodSecurity admission", () => {
  it("lets anything into a namespace that enforces nothing", () => {
    expect(refusal(podOf({ hostNetwork: true, containers: [{ name: "a", securityContext: { privileged: true } }] }), "")).toBeNull();
  });

  it("refuses a plain pod where restricted is enforced, listing every check it fails in the plugin's words", () => {
    expect(refusal(podOf({ containers: [{ name: "plain", image: "busybox" }] }), "restricted")).toBe(
      'pods "box" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "plain" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "plain" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "plain" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "plain" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it("admits a pod that sets what restricted asks, at pod level where it may", () => {
    expect(refusal(restrictedPod(), "restricted")).toBeNull();
  });

  it("checks init containers too", () => {
    expect(refusal(restrictedPod({ initContainers: [{ name: "seed", securityContext: { runAsUser: 0 } }] }), "restricted")).toMatch(/container "seed" must set securityContext.allowPrivilegeEscalation=false.*runAsUser=0 \(container "seed" must not set runAsUser=0\)/);
  });

  it("refuses a hostPath volume at baseline", () => {
    expect(refusal(podOf({ volumes: [{ name: "root", hostPath: { path: "/" } }], containers: [{ name: "a" }] }), "baseline")).toContain('hostPath volumes (volume "root")');
  });

  it("lets root and a missing seccomp profile through at baseline, but not a privileged container", () => {
    expect(refusal(podOf({ containers: [{ name: "a", securityContext: { runAsUser: 0 } }] }), "baseline")).toBeNull();
    expect(refusal(podOf({ containers: [{ name: "a", securityContext: { privileged: true } }] }), "baseline")).toContain("privileged (container \"a\"");
  });

  it("admits claim and emptyDir volumes at restricted", () => {
    expect(refusal(restrictedPod({ volumes: [{ name: "ws", persistentVolumeClaim: { claimName: "ws" } }, { name: "tmp", emptyDir: {} }] }), "restricted")).toBeNull();
  });
});
