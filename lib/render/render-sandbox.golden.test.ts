import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expectGolden as expectGoldenFile } from "../testing/golden-files.ts";
import { aSpec, gatewayDefaults } from "../domain/test-fixtures.ts";
import { renderSandbox } from "./render-sandbox.ts";
import { SANDBOX_ID, render } from "./test-fixtures.ts";
import { toYaml } from "./yaml.ts";

// The whole render result as YAML, compared byte for byte. After a deliberate change,
// regenerate with `UPDATE_GOLDEN=1 npx vitest run lib/render` and review the diff.
// (File access lives here, in the test; the renderer itself never touches files.)

const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), "testdata");

const expectGolden = (name: string, actual: string) => expectGoldenFile(TESTDATA, name, actual);

const CASES: { name: string; render: () => ReturnType<typeof render> }[] = [
  { name: "pvc-template-default", render: () => render() },
  { name: "pvc-template-v1alpha1", render: () => render({}, { apiVersion: "v1alpha1" }) },
  { name: "pvc-retain", render: () => render({ workspace: { claim: { ownership: "retain", size: "10Gi" } } }) },
  { name: "pvc-delete", render: () => render({ workspace: { claim: { ownership: "delete", claimName: "scratch-my-box", accessModes: ["ReadWriteOncePod"] } } }) },
  { name: "pvc-existing", render: () => render({ workspace: { claim: { ownership: "existing", claimName: "team-home" } } }) },
  { name: "ephemeral", render: () => render({ workspace: { backend: "ephemeral" } }) },
  {
    name: "extra-volumes",
    render: () =>
      render({
        volumes: [
          { name: "cache", pvc: { claimName: "shared-cache", storage: "20Gi", storageClass: "fast-ssd", accessModes: ["ReadWriteMany"] }, mountPath: "/cache" },
          { name: "scratch", pvc: { claimName: "scratch-my-box", deleteOnSandboxTermination: true }, mountPath: "/scratch" },
          { name: "datasets", pvc: { claimName: "datasets", createIfNotExists: false }, mountPath: "/data/imagenet", readOnly: true, subPath: "imagenet" },
          { name: "datasets-coco", pvc: { claimName: "datasets", createIfNotExists: false }, mountPath: "/data/coco", readOnly: true, subPath: "coco" },
        ],
      }),
  },
  {
    name: "env-plain-secret-and-reference",
    render: () =>
      render({
        env: [
          { name: "MODE", value: "test" },
          { name: "API_KEY", value: "sk-golden", secret: true },
          { name: "TOKEN", valueFrom: { secretKeyRef: { name: "team-token", key: "token" } } },
        ],
      }),
  },
  { name: "storage-class-unset", render: () => render({}, { defaults: { workspaceStorageClass: undefined } }) },
  { name: "storage-class-none", render: () => render({ workspace: { claim: { storageClassName: "" } } }) },
  { name: "storage-class-named", render: () => render({ workspace: { claim: { storageClassName: "fast-ssd" } } }) },
  { name: "eviction-protection", render: () => render({ disruptionPolicy: { evictionProtection: true, terminationGracePeriodSeconds: 120 } }) },
  {
    name: "claude-profile",
    render: () =>
      render({
        profile: "claude",
        namespace: "agents",
        env: [{ name: "ANTHROPIC_BASE_URL", value: "http://llm-gateway.agents.svc:8080" }],
        resources: { requests: { cpu: "500m", memory: "1Gi" }, limits: { memory: "4Gi" } },
      }),
  },
];

describe("renderSandbox golden files", () => {
  it.each(CASES)("$name", ({ name, render: renderCase }) => {
    expectGolden(name, toYaml(renderCase()));
  });
});

describe("render-diff: the default output is byte-for-byte stable", () => {
  it("renders the same bytes twice from equal input", () => {
    expect(toYaml(render())).toBe(toYaml(render()));
  });

  it("renders exactly the committed default golden file", () => {
    expect(toYaml(render())).toBe(readFileSync(join(TESTDATA, "pvc-template-default.golden.yaml"), "utf8"));
  });

  it("does not depend on the order keys were written in the submitted spec", () => {
    const written = aSpec({ workspace: { claim: { size: "5Gi", accessModes: ["ReadWriteOnce"] } }, profile: "claude" });
    const reordered = aSpec({ profile: "claude", workspace: { claim: { accessModes: ["ReadWriteOnce"], size: "5Gi" } } });
    const renderOf = (spec: typeof written) => toYaml(renderSandbox({ spec, defaults: gatewayDefaults(), sandboxId: SANDBOX_ID, apiVersion: "v1beta1" }));
    expect(renderOf(reordered)).toBe(renderOf(written));
  });
});
