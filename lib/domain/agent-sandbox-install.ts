import { z } from "zod";
import { SANDBOX_API_GROUP, SANDBOX_API_VERSIONS, sandboxApiVersionSchema, type SandboxApiVersion } from "./sandbox-api.ts";

// What discovery says of an agent-sandbox install, and what Berth makes of it. agent-sandbox
// serves two groups: agents.x-k8s.io (Sandbox) and, with its extensions,
// extensions.agents.x-k8s.io (SandboxTemplate, SandboxClaim, SandboxWarmPool). Each moved from
// v1alpha1 to v1beta1 in the v0.5 releases, and 1.0 serves v1beta1 alone. A release installs
// both groups' definitions together; one group a version ahead of the other means definitions
// from two releases: a half-finished upgrade.

export const EXTENSIONS_API_GROUP = "extensions.agents.x-k8s.io";

/** The versions each agent-sandbox group is served in, as discovery lists them. */
export interface ServedAgentSandboxApis {
  sandbox: readonly string[];
  extensions: readonly string[];
}

export const installFindingSchema = z.object({
  code: z.enum(["half-migrated", "extensions-not-installed", "deprecated-version-only"]),
  /** A warning makes Berth's health degraded; a notice is said but changes nothing. */
  severity: z.enum(["warning", "notice"]),
  message: z.string(),
});
export type InstallFinding = z.infer<typeof installFindingSchema>;

export const agentSandboxInstallSchema = z.object({
  /** The Sandbox version Berth uses: v1beta1 when served, else the deprecated v1alpha1. */
  sandboxApiVersion: sandboxApiVersionSchema,
  /** The extensions version Berth uses, null when the extensions are not installed. */
  extensionsApiVersion: sandboxApiVersionSchema.nullable(),
  findings: z.array(installFindingSchema),
});
export type AgentSandboxInstall = z.infer<typeof agentSandboxInstallSchema>;

const newest = (served: readonly string[]): SandboxApiVersion | null => SANDBOX_API_VERSIONS.find((version) => served.includes(version)) ?? null;
const listed = (served: readonly string[]) => served.filter((version) => (SANDBOX_API_VERSIONS as readonly string[]).includes(version)).join(" and ");

/** The install as Berth will use it, or null when the Sandbox API is not served at all. */
export function assessAgentSandboxInstall(served: ServedAgentSandboxApis): AgentSandboxInstall | null {
  const sandboxApiVersion = newest(served.sandbox);
  if (!sandboxApiVersion) return null;
  const extensionsApiVersion = newest(served.extensions);
  const findings: InstallFinding[] = [];
  if (!extensionsApiVersion) {
    findings.push({
      code: "extensions-not-installed",
      severity: "notice",
      message: `${EXTENSIONS_API_GROUP} is not served: templates, warm pools and claims need agent-sandbox's extensions (its extensions manifest, controller flag --extensions).`,
    });
  } else if (extensionsApiVersion !== sandboxApiVersion) {
    const [ahead, behind] = sandboxApiVersion === "v1beta1" ? [SANDBOX_API_GROUP, EXTENSIONS_API_GROUP] : [EXTENSIONS_API_GROUP, SANDBOX_API_GROUP];
    findings.push({
      code: "half-migrated",
      severity: "warning",
      message:
        `The agent-sandbox install is half-migrated: ${SANDBOX_API_GROUP} serves ${listed(served.sandbox)} but ${EXTENSIONS_API_GROUP} serves ${listed(served.extensions)}. ` +
        `${ahead} is from a newer release than ${behind}: apply the CustomResourceDefinitions of one release to both groups and restart the controller.`,
    });
  }
  if (sandboxApiVersion === "v1alpha1") {
    findings.push({
      code: "deprecated-version-only",
      severity: "notice",
      message: `The cluster serves Sandboxes only in the deprecated v1alpha1, which agent-sandbox 1.0 no longer serves: upgrade agent-sandbox to v0.5.6 or newer before 1.0.`,
    });
  }
  return { sandboxApiVersion, extensionsApiVersion, findings };
}

/** The findings as one line each, for a status message. */
export const findingLines = (install: AgentSandboxInstall, severity?: InstallFinding["severity"]) =>
  install.findings.filter((finding) => !severity || finding.severity === severity).map((finding) => finding.message);
