import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sandboxTemplateSpecSchema, type SandboxTemplateSpecInput } from "../domain/sandbox-template.ts";
import { gatewayDefaults } from "../domain/test-fixtures.ts";
import { expectGolden } from "../testing/golden-files.ts";
import { renderSandboxClaim, renderSandboxTemplate } from "./render-template.ts";
import { render } from "./test-fixtures.ts";
import { toYaml } from "./yaml.ts";

// A template's SandboxTemplate and SandboxWarmPool, and a claim on its pool, as YAML, compared byte for byte. After a
// deliberate change, regenerate with `UPDATE_GOLDEN=1 npx vitest run lib/render` and review the diff.

const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), "testdata");

const renderTemplate = (input: Partial<SandboxTemplateSpecInput> = {}) =>
  renderSandboxTemplate({ template: sandboxTemplateSpecSchema.parse({ name: "python", ...input }), defaults: gatewayDefaults(), apiVersion: "v1beta1" });

const asYaml = (result: ReturnType<typeof renderSandboxTemplate>) => [result.sandboxTemplate, ...(result.warmPool ? [result.warmPool] : [])].map(toYaml).join("---\n");

const CASES: { name: string; input: Partial<SandboxTemplateSpecInput> }[] = [
  { name: "template-pvc-pooled", input: { description: "Python agents with a 5Gi workspace", sandbox: { workspace: { claim: { size: "5Gi" } } }, warmPool: { replicas: 3 } } },
  { name: "template-ephemeral", input: { sandbox: { workspace: { backend: "ephemeral" } } } },
  {
    name: "template-claude-recreate",
    input: {
      sandbox: {
        profile: "claude",
        resources: { requests: { cpu: "500m", memory: "1Gi" }, limits: { memory: "4Gi" } },
        env: [{ name: "TOKEN", valueFrom: { secretKeyRef: { name: "team-token", key: "token" } } }],
        disruptionPolicy: { terminationGracePeriodSeconds: 120, evictionProtection: true },
      },
      warmPool: { replicas: 1, updateStrategy: "Recreate" },
    },
  },
];

describe("a template's rendered objects", () => {
  it.each(CASES)("match the golden file $name", ({ name, input }) => {
    expectGolden(TESTDATA, name, asYaml(renderTemplate(input)));
  });

  it("and a sandbox claimed from it match the golden file template-claim", () => {
    expectGolden(TESTDATA, "template-claim", toYaml(renderSandboxClaim({ namespace: "team-a", name: "my-agent", template: "python", labelPrefix: "berth.dev", apiVersion: "v1beta1" })));
  });

  it("carry the pod a sandbox of the same spec would get, but for Berth's labels", () => {
    const { sandboxTemplate } = renderTemplate({ sandbox: { profile: "claude" } });
    const sandbox = render({ name: "python", profile: "claude" }).sandbox;
    expect(sandboxTemplate.spec.podTemplate.spec).toEqual(sandbox.spec.podTemplate.spec);
  });
});
