import { z } from "zod";
import { disruptionPolicySchema } from "./disruption-policy.ts";
import { driverConfigSchema } from "./driver-config.ts";
import { envSchema } from "./env.ts";
import { dns1123Label } from "./kubernetes-names.ts";
import { userLabelsSchema } from "./labels.ts";
import { imageReferenceProblem } from "./image-reference.ts";
import { report, reportProblem } from "./problems.ts";
import { profileSchema } from "./profiles.ts";
import { resourcesSchema } from "./resources.ts";
import { argumentsSchema, refineSpecText } from "./spec-sizes.ts";
import { volumesSchema } from "./volumes.ts";
import { backendConflictProblems, chosenBackend, ephemeralWorkspaceProblems } from "./workspace-rules.ts";
import { workspaceSchema } from "./workspace.ts";

/**
 * What a user (or the create form in the browser) submits to create a sandbox. Everything the
 * gateway has a default for stays unset here and is decided by resolveWorkspace, so the stored
 * spec keeps saying what the user chose, not what the gateway happened to default to that day.
 *
 * Objects are strict: an unknown key is refused rather than dropped, so a misspelt field never
 * silently falls back to a default.
 *
 * Rules that need the gateway defaults (a workspace the gateway makes ephemeral, mount paths
 * against the gateway's workspace mount path) live in validateSandboxSpec.
 */
export const sandboxSpecFields = z.strictObject({
  name: dns1123Label("name"),
  /** Unset: the gateway's sandbox namespace. */
  namespace: dns1123Label("namespace").optional(),
  profile: profileSchema.default("generic"),
  /** Unset: the profile's image (required for `custom`). */
  image: z
    .string()
    .superRefine((image, ctx) => {
      const problem = imageReferenceProblem(image);
      if (problem) report(ctx, "image.invalid-reference", [], `image ${problem}`);
    })
    .optional(),
  /** Unset: the profile's command (for `custom`, the image's entrypoint). */
  command: argumentsSchema("command").min(1, "command cannot be empty; leave it out to use the profile's command").optional(),
  /** The person's own labels, to find and select the sandbox by; Berth's are added beside them. */
  labels: userLabelsSchema.optional(),
  env: envSchema.default([]),
  resources: resourcesSchema.optional(),
  workspace: workspaceSchema.prefault({}),
  volumes: volumesSchema.default([]),
  driverConfig: driverConfigSchema.optional(),
  disruptionPolicy: disruptionPolicySchema.prefault({}),
});

/** The rules across fields, for a sandbox's spec and for the part of a template that becomes one. */
export function refineSandboxSpec(spec: Omit<z.output<typeof sandboxSpecFields>, "name" | "namespace">, ctx: z.RefinementCtx): void {
  refineSpecText(spec, ctx);
  if (spec.profile === "custom" && spec.image === undefined) {
    reportProblem(ctx, {
      code: "profile.custom-needs-image",
      path: ["image"],
      message: "profile custom has no image of its own: set image to the container image to run, e.g. ghcr.io/example/agent:1.0",
    });
  }
  for (const problem of backendConflictProblems(spec)) reportProblem(ctx, problem);
  if (chosenBackend(spec)?.backend === "ephemeral") {
    for (const problem of ephemeralWorkspaceProblems(spec)) reportProblem(ctx, problem);
  }
}

export const sandboxSpecSchema = sandboxSpecFields.superRefine(refineSandboxSpec);

export type SandboxSpec = z.infer<typeof sandboxSpecSchema>;
export type SandboxSpecInput = z.input<typeof sandboxSpecSchema>;
