import { describe, expect, it } from "vitest";
import { driverConfigSchema } from "./driver-config.ts";
import { problemsFromZodError } from "./problems.ts";

function problems(input: unknown) {
  const result = driverConfigSchema.safeParse(input);
  return result.success ? [] : problemsFromZodError(result.error);
}

describe("driverConfigSchema", () => {
  it("accepts OpenShell's snake_case keys", () => {
    expect(
      problems({ kubernetes: { workspace_backend: "pvc", workspace_default_storage_size: "10Gi", workspace_storage_class: "fast-ssd" } }),
    ).toEqual([]);
  });

  it("refuses an unknown kubernetes key and names the allowed ones", () => {
    expect(problems({ kubernetes: { workspaceBackend: "pvc" } })).toEqual([
      {
        code: "unrecognized_keys",
        path: ["kubernetes"],
        message:
          "driverConfig.kubernetes does not support 'workspaceBackend'; allowed keys: workspace_backend, workspace_default_storage_size, workspace_storage_class",
      },
    ]);
  });

  it("refuses a driver other than kubernetes", () => {
    expect(problems({ docker: {} })).toMatchObject([{ code: "unrecognized_keys", path: [], message: expect.stringContaining("allowed keys: kubernetes") }]);
  });

  it("refuses an unknown backend and lists the known ones", () => {
    expect(problems({ kubernetes: { workspace_backend: "hostPath" } })).toMatchObject([
      { path: ["kubernetes", "workspace_backend"], message: "workspace backend must be one of: pvc, ephemeral" },
    ]);
  });

  it("refuses a storage size that is not a Kubernetes quantity", () => {
    expect(problems({ kubernetes: { workspace_default_storage_size: "ten gigs" } })).toMatchObject([
      { path: ["kubernetes", "workspace_default_storage_size"], message: expect.stringContaining("Kubernetes quantity") },
    ]);
  });

  it("accepts an empty storage class, which means no class", () => {
    expect(problems({ kubernetes: { workspace_storage_class: "" } })).toEqual([]);
  });
});
