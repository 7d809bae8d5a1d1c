import { describe, expect, it } from "vitest";
import { problemsFromZodError } from "@/lib/domain/problems.ts";
import { sandboxSpecSchema } from "@/lib/domain/sandbox-spec.ts";
import { emptyEnvRow, formFieldOf, formValuesOf, initialFormValues, newExtraVolume, specFromForm, type CreateFormValues } from "./create-form-values.ts";

// The create form's translation into the sandbox spec, and problems back onto its fields.

function formWith(change: (values: CreateFormValues) => void, backend: "pvc" | "ephemeral" = "pvc"): CreateFormValues {
  const values = initialFormValues(backend);
  values.name = "box";
  change(values);
  return values;
}

const specOf = (change: (values: CreateFormValues) => void = () => {}) => specFromForm(formWith(change), "pvc");
const fieldsWithProblems = (values: CreateFormValues) => {
  const result = sandboxSpecSchema.safeParse(specFromForm(values, "pvc"));
  // A field may break more than one rule (an empty name is both missing and malformed).
  return result.success ? [] : [...new Set(problemsFromZodError(result.error).map((problem) => formFieldOf(problem.path)))];
};

describe("the spec a create form describes", () => {
  it("says only what the person chose when nothing was touched", () => {
    expect(specOf()).toEqual({
      name: "box",
      profile: "generic",
      env: [],
      workspace: {},
      volumes: [],
      disruptionPolicy: { evictionProtection: false, terminationGracePeriodSeconds: 30, checkpointFailurePolicy: "Block", autoRecoverFailedPods: true, snapshotOnCheckpoint: false },
    });
  });

  it("splits the command one argument per line", () => {
    expect(specOf((values) => (values.command = "python\n-m\nhttp.server\n")).command).toEqual(["python", "-m", "http.server"]);
  });

  it("reads the labels one KEY=VALUE per line", () => {
    expect(specOf((values) => (values.labels = "team=ml\n\nexample.com/owner = dana\n")).labels).toEqual({ team: "ml", "example.com/owner": "dana" });
  });

  it("reads a label line without = as a key with an empty value", () => {
    expect(specOf((values) => (values.labels = "scratch")).labels).toEqual({ scratch: "" });
  });

  it("runs the checkpoint hook through sh -c", () => {
    expect(specOf((values) => (values.disruptionPolicy.checkpointHook = "git stash")).disruptionPolicy?.checkpointHook).toEqual(["sh", "-c", "git stash"]);
  });

  it("sends the backend only when it differs from the gateway's", () => {
    expect(specOf((values) => (values.workspace.backend = "ephemeral")).workspace).toEqual({ backend: "ephemeral" });
  });

  it("turns the three-way storage class choice into absent, empty or a name", () => {
    const classOf = (choice: "cluster-default" | "none" | "named") => specOf((values) => (values.workspace.claim.storageClass = { choice, name: "portable" })).workspace?.claim?.storageClassName;
    expect([classOf("cluster-default"), classOf("none"), classOf("named")]).toEqual([undefined, "", "portable"]);
  });

  it("leaves the claim's provisioning out for an existing claim", () => {
    const spec = specOf((values) => {
      values.workspace.claim = { ownership: "existing", claimName: "kept", storageClass: { choice: "named", name: "portable" }, size: "5Gi", accessModes: ["ReadWriteMany"] };
    });
    expect(spec.workspace?.claim).toEqual({ ownership: "existing", claimName: "kept" });
  });

  it("sends no claim for an ephemeral workspace, whatever the hidden claim fields hold", () => {
    expect(specOf((values) => ((values.workspace.backend = "ephemeral"), (values.workspace.claim.size = "5Gi"))).workspace).toEqual({ backend: "ephemeral" });
  });

  it("leaves out an env row the person left blank", () => {
    expect(specOf((values) => (values.env = [{ ...emptyEnvRow(), name: "A", value: "1" }, emptyEnvRow()])).env).toEqual([{ name: "A", value: "1" }]);
  });

  it("sends a secret value marked secret", () => {
    expect(specOf((values) => (values.env = [{ ...emptyEnvRow(), name: "API_KEY", source: "secret", value: "sk-1" }])).env).toEqual([{ name: "API_KEY", value: "sk-1", secret: true }]);
  });

  it("sends a key of an existing Secret as valueFrom, without a value", () => {
    expect(specOf((values) => (values.env = [{ ...emptyEnvRow(), name: "TOKEN", source: "secretKey", value: "left over", secretName: "team-token", secretKey: "token" }])).env).toEqual([
      { name: "TOKEN", valueFrom: { secretKeyRef: { name: "team-token", key: "token" } } },
    ]);
  });

  it("puts a problem with a Secret reference on the Secret's fields", () => {
    expect([formFieldOf(["env", 0, "valueFrom", "secretKeyRef", "name"]), formFieldOf(["env", 0, "valueFrom", "secretKeyRef", "key"])]).toEqual(["env.0.secretName", "env.0.secretKey"]);
  });

  it("starts from a retained claim as an existing claim in its namespace", () => {
    const values = initialFormValues("ephemeral", { namespace: "team-a", name: "workspace-old" });
    expect([values.namespace, values.workspace.backend, values.workspace.claim.ownership, values.workspace.claim.claimName]).toEqual(["team-a", "pvc", "existing", "workspace-old"]);
  });
});

describe("problems on the form's fields", () => {
  it("puts a bad name on the name field", () => {
    expect(fieldsWithProblems(formWith((values) => (values.name = "Not_A_Name")))).toEqual(["name"]);
  });

  it("puts a bad storage class on the class name the person typed", () => {
    expect(fieldsWithProblems(formWith((values) => (values.workspace.claim.storageClass = { choice: "named", name: "Bad Class" })))).toEqual(["workspace.claim.storageClass.name"]);
  });

  it("puts a problem inside an extra volume's claim on that volume's field", () => {
    const values = formWith((form) => (form.volumes = [{ ...newExtraVolume(0), pvc: { ...newExtraVolume(0).pvc, claimName: "", storage: "lots" } }]));
    expect(fieldsWithProblems(values).sort()).toEqual(["volumes.0.pvc.claimName", "volumes.0.pvc.storage"]);
  });

  it("puts a checkpoint grace longer than the termination grace on the checkpoint grace", () => {
    const values = formWith((form) => ((form.disruptionPolicy.checkpointGracePeriodSeconds = "60"), (form.disruptionPolicy.terminationGracePeriodSeconds = "30")));
    expect(fieldsWithProblems(values)).toEqual(["disruptionPolicy.checkpointGracePeriodSeconds"]);
  });

  it("puts a non-number grace period on its field", () => {
    expect(fieldsWithProblems(formWith((values) => (values.disruptionPolicy.terminationGracePeriodSeconds = "soon")))).toEqual(["disruptionPolicy.terminationGracePeriodSeconds"]);
  });

  it("puts a label key Kubernetes would refuse on the labels field", () => {
    expect(fieldsWithProblems(formWith((values) => (values.labels = "not a key=x")))).toEqual(["labels"]);
  });

  it("maps a problem deeper than the form to the nearest field", () => {
    expect(formFieldOf(["command", 2])).toBe("command");
  });

  it("has no field for a problem about the spec as a whole", () => {
    expect(formFieldOf(["driverConfig", "kubernetes"])).toBeNull();
  });
});

describe("a spec shown in the form", () => {
  it.each([
    ["the defaults", { name: "plain" }],
    ["a named class, a size and a hook", { name: "py", profile: "custom", image: "python:3.12", command: ["python", "-m", "agent"], labels: { team: "ml" }, workspace: { claim: { storageClassName: "portable", size: "5Gi" } }, disruptionPolicy: { evictionProtection: true, checkpointHook: ["sh", "-c", "sync"], terminationGracePeriodSeconds: 90 } }],
    ["no class, ephemeral, a Secret's key", { name: "eph", workspace: { backend: "ephemeral" }, env: [{ name: "TOKEN", valueFrom: { secretKeyRef: { name: "t", key: "k" } } }, { name: "MODE", value: "x" }] }],
    ["a read-only extra volume", { name: "vol", volumes: [{ name: "data", mountPath: "/data", readOnly: true, pvc: { claimName: "shared", createIfNotExists: false } }] }],
  ])("comes back as the same spec: %s", (_, input) => {
    const spec = sandboxSpecSchema.parse(input);
    expect(sandboxSpecSchema.parse(specFromForm(formValuesOf(spec, "pvc"), "pvc"))).toEqual(spec);
  });
});
