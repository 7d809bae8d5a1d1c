import { describe, expect, it } from "vitest";
import { InvalidSandboxSpecError } from "../domain/problems.ts";
import { aSpec, gatewayDefaults } from "../domain/test-fixtures.ts";
import { renderSandbox } from "./render-sandbox.ts";
import { workspaceSeedScript } from "./workspace-init.ts";
import { SANDBOX_ID, render } from "./test-fixtures.ts";

function podSpec(result: ReturnType<typeof render>) {
  return result.sandbox.spec.podTemplate.spec;
}

function agent(result: ReturnType<typeof render>) {
  const [container] = podSpec(result).containers;
  if (!container) throw new Error("no agent container");
  return container;
}

function initContainer(result: ReturnType<typeof render>) {
  const [container] = podSpec(result).initContainers;
  if (!container) throw new Error("no init container");
  return container;
}

describe("per-sandbox driverConfig beats the gateway defaults", () => {
  it("renders an emptyDir when driverConfig says ephemeral and the gateway says pvc", () => {
    const result = render({ driverConfig: { kubernetes: { workspace_backend: "ephemeral" } } }, { defaults: { workspaceBackend: "pvc" } });
    expect(podSpec(result).volumes).toEqual([{ name: "workspace", emptyDir: {} }]);
    expect(result.sandbox.spec.volumeClaimTemplates).toBeUndefined();
  });

  it("renders a claim template when driverConfig says pvc and the gateway says ephemeral", () => {
    const result = render({ driverConfig: { kubernetes: { workspace_backend: "pvc" } } }, { defaults: { workspaceBackend: "ephemeral" } });
    expect(result.sandbox.spec.volumeClaimTemplates).toHaveLength(1);
  });

  it("requests driverConfig's size, not the gateway's", () => {
    const result = render({ driverConfig: { kubernetes: { workspace_default_storage_size: "10Gi" } } }, { defaults: { workspaceDefaultStorageSize: "2Gi" } });
    expect(result.sandbox.spec.volumeClaimTemplates?.[0]?.spec.resources.requests.storage).toBe("10Gi");
  });

  it("uses driverConfig's storage class, not the gateway's", () => {
    const result = render({ driverConfig: { kubernetes: { workspace_storage_class: "fast-ssd" } } }, { defaults: { workspaceStorageClass: "standard" } });
    expect(result.sandbox.spec.volumeClaimTemplates?.[0]?.spec.storageClassName).toBe("fast-ssd");
  });
});

describe("the gateway defaults apply when the spec says nothing", () => {
  it("renders an emptyDir when the gateway's backend is ephemeral", () => {
    expect(podSpec(render({}, { defaults: { workspaceBackend: "ephemeral" } })).volumes).toEqual([{ name: "workspace", emptyDir: {} }]);
  });

  it("requests the gateway's storage size", () => {
    const result = render({}, { defaults: { workspaceDefaultStorageSize: "20Gi" } });
    expect(result.sandbox.spec.volumeClaimTemplates?.[0]?.spec.resources.requests.storage).toBe("20Gi");
  });

  it("uses the gateway's storage class", () => {
    const result = render({}, { defaults: { workspaceStorageClass: "standard" } });
    expect(result.sandbox.spec.volumeClaimTemplates?.[0]?.spec.storageClassName).toBe("standard");
  });

  it("leaves storageClassName out when no layer names a class, so the cluster default applies", () => {
    const result = render();
    expect(result.sandbox.spec.volumeClaimTemplates?.[0]?.spec).not.toHaveProperty("storageClassName");
  });

  it("places the sandbox in the gateway's namespace", () => {
    expect(render({}, { defaults: { sandboxNamespace: "agents" } }).sandbox.metadata.namespace).toBe("agents");
  });

  it("mounts the workspace at the gateway's mount path and seeds it from there", () => {
    const result = render({}, { defaults: { workspaceMountPath: "/home/agent" } });
    expect(agent(result).volumeMounts[0]).toEqual({ name: "workspace", mountPath: "/home/agent" });
    expect(initContainer(result).command?.[2]).toContain("tar -C /home/agent -cf - .");
  });

  it("labels with the gateway's label prefix", () => {
    const result = render({}, { defaults: { labelPrefix: "sandboxes.example.com" } });
    expect(result.sandbox.spec.podTemplate.metadata.labels).toEqual({
      "sandboxes.example.com/managed-by": "berth",
      "sandboxes.example.com/sandbox-id": SANDBOX_ID,
    });
  });

  it("puts the person's labels on the Sandbox and its pod, beside Berth's own", () => {
    const result = render({ labels: { team: "ml", "example.com/owner": "dana" } });
    const expected = { team: "ml", "example.com/owner": "dana", "berth.dev/managed-by": "berth", "berth.dev/sandbox-id": SANDBOX_ID };
    expect([result.sandbox.metadata.labels, result.sandbox.spec.podTemplate.metadata.labels]).toEqual([expected, expected]);
  });

  it("refuses a label in Berth's own domain, which selects its objects", () => {
    expect(() => render({ labels: { "berth.dev/sandbox-id": "someone-else" } })).toThrow(InvalidSandboxSpecError);
  });
});

describe("the workspace-init container", () => {
  it("mounts the volume away from the workspace path, where the image's files stay visible", () => {
    expect(initContainer(render()).volumeMounts).toEqual([{ name: "workspace", mountPath: "/mnt/berth-workspace" }]);
  });

  it("runs the agent's own image, so it has the files to copy", () => {
    const result = render({ profile: "custom", image: "example.com/agent:1" });
    expect(initContainer(result).image).toBe("example.com/agent:1");
  });

  it("copies only while the sentinel is missing, then writes it", () => {
    expect(initContainer(render()).command?.[2]).toBe(
      "if [ ! -f /mnt/berth-workspace/.workspace-initialized ]; then if [ -d /sandbox ]; then tar -C /sandbox -cf - . | tar -C /mnt/berth-workspace -xpf -; fi && touch /mnt/berth-workspace/.workspace-initialized; fi",
    );
  });

  it("quotes a mount path the shell would split (one stored before spaces were refused)", () => {
    expect(workspaceSeedScript("/home/my agent")).toContain("tar -C '/home/my agent' -cf - .");
  });
});

describe("the agent container", () => {
  it("is named agent and runs the profile's command", () => {
    expect(agent(render({ profile: "opencode" }))).toMatchObject({ name: "agent", command: ["sleep", "infinity"] });
  });

  it("leaves the command to the image for a custom image without one", () => {
    expect(agent(render({ profile: "custom", image: "example.com/agent:1" }))).not.toHaveProperty("command");
  });

  it("takes terminationGracePeriodSeconds from the disruption policy", () => {
    expect(podSpec(render({ disruptionPolicy: { terminationGracePeriodSeconds: 90 } })).terminationGracePeriodSeconds).toBe(90);
  });
});

describe("claims", () => {
  it("leaves a template workspace's claim to the controller: no claim plan, no pod volume", () => {
    const result = render();
    expect(result.claims).toEqual([]);
    expect(podSpec(result)).not.toHaveProperty("volumes");
  });

  it("lets Berth create a retained workspace claim, labelled retain", () => {
    const [plan] = render({ workspace: { claim: { ownership: "retain" } } }).claims;
    expect(plan).toMatchObject({ name: "workspace-my-box", ownership: "retain", mountedBy: ["workspace"] });
    expect(plan?.manifest?.metadata.labels["berth.dev/claim-ownership"]).toBe("retain");
  });

  it("asks for an existing claim to be checked, never created", () => {
    const [plan] = render({ workspace: { claim: { ownership: "existing", claimName: "team-home" } } }).claims;
    expect(plan).toEqual({ name: "team-home", ownership: "existing", mountedBy: ["workspace"] });
  });

  it("gives an extra volume with deleteOnSandboxTermination delete ownership", () => {
    const [plan] = render({ volumes: [{ name: "scratch", pvc: { claimName: "scratch", deleteOnSandboxTermination: true }, mountPath: "/scratch" }] }).claims;
    expect(plan).toMatchObject({ ownership: "delete", manifest: { metadata: { labels: { "berth.dev/claim-ownership": "delete" } } } });
  });

  it("gives an extra volume's claim the gateway's storage class when it names none", () => {
    const result = render({ volumes: [{ name: "cache", pvc: { claimName: "cache" }, mountPath: "/cache" }] }, { defaults: { workspaceStorageClass: "standard" } });
    expect(result.claims[0]?.manifest?.spec.storageClassName).toBe("standard");
  });

  it('gives an extra volume\'s claim no class when it says ""', () => {
    const result = render({ volumes: [{ name: "cache", pvc: { claimName: "cache", storageClass: "" }, mountPath: "/cache" }] }, { defaults: { workspaceStorageClass: "standard" } });
    expect(result.claims[0]?.manifest?.spec.storageClassName).toBe("");
  });

  it("plans a claim mounted twice once, and mounts it through one pod volume", () => {
    const result = render({
      volumes: [
        { name: "a", pvc: { claimName: "shared" }, mountPath: "/a", subPath: "a" },
        { name: "b", pvc: { claimName: "shared" }, mountPath: "/b", subPath: "b" },
      ],
    });
    expect(result.claims.map((plan) => plan.mountedBy)).toEqual([["a", "b"]]);
    expect(podSpec(result).volumes).toEqual([{ name: "a", persistentVolumeClaim: { claimName: "shared" } }]);
    expect(agent(result).volumeMounts.slice(1).map((mount) => mount.name)).toEqual(["a", "a"]);
  });
});

describe("eviction protection", () => {
  it("renders no PodDisruptionBudget by default", () => {
    expect(render()).not.toHaveProperty("podDisruptionBudget");
  });

  it("selects the sandbox's pods by the sandbox-id label the pod template carries", () => {
    const result = render({ disruptionPolicy: { evictionProtection: true } });
    const selector = result.podDisruptionBudget?.spec.selector.matchLabels ?? {};
    expect(result.sandbox.spec.podTemplate.metadata.labels).toMatchObject(selector);
    expect(result.podDisruptionBudget?.spec.minAvailable).toBe(1);
  });
});

describe("refusals", () => {
  it("refuses a spec the gateway defaults make invalid, with the problem attached", () => {
    const spec = aSpec({ workspace: { claim: { size: "5Gi" } } });
    const attempt = () => renderSandbox({ spec, defaults: gatewayDefaults({ workspaceBackend: "ephemeral" }), sandboxId: SANDBOX_ID, apiVersion: "v1beta1" });
    expect(attempt).toThrow(InvalidSandboxSpecError);
  });

  it("refuses a sandbox id that cannot be a label value", () => {
    expect(() => renderSandbox({ spec: aSpec(), defaults: gatewayDefaults(), sandboxId: "not/a/label", apiVersion: "v1beta1" })).toThrow(RangeError);
  });
});

describe("the pod's security", () => {
  const podSpec = (result: ReturnType<typeof render>) => result.sandbox.spec.podTemplate.spec;

  it("mounts no service-account token and no Service links into agent code", () => {
    expect(podSpec(render())).toMatchObject({ automountServiceAccountToken: false, enableServiceLinks: false });
  });

  it.each(["generic", "claude", "opencode"] as const)("runs the %s profile as the sandbox user, never root, with the runtime's seccomp profile", (profile) => {
    expect(podSpec(render({ profile })).securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, fsGroupChangePolicy: "OnRootMismatch", seccompProfile: { type: "RuntimeDefault" } });
  });

  it("lets no container escalate privileges or keep a capability, the workspace seeding included", () => {
    const spec = podSpec(render());
    expect([...spec.initContainers, ...spec.containers].map((container) => container.securityContext)).toEqual([
      { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
      { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
    ]);
  });
});

