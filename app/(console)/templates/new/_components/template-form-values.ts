import type { GatewayDefaults } from "@/lib/domain/gateway-defaults.ts";
import type { GatewayLimits } from "@/lib/domain/gateway-limits.ts";
import type { ProblemPath, SpecProblem } from "@/lib/domain/problems.ts";
import { MAX_WARM_POOL_REPLICAS, templateAsSandboxSpec, validateSandboxTemplate, type SandboxTemplateSpec, type SandboxTemplateSpecInput } from "@/lib/domain/sandbox-template.ts";
import { formFieldOf, formValuesOf, initialFormValues, specFromForm, type CreateFormValues, type TemplateFields } from "@/app/(console)/sandboxes/new/_components/create-form-values.ts";
import { problemResolver } from "@/app/(console)/sandboxes/new/_components/spec-resolver.ts";

// The template form: the create form's fields for the sandboxes the template stands for, and the
// template's own (description, warm pool). Translated into the template the API takes, validated
// by the server's own validateSandboxTemplate, each problem put back on its field.

export type TemplateFormValues = CreateFormValues & { template: TemplateFields };

export function initialTemplateValues(gatewayBackend: GatewayDefaults["workspaceBackend"]): TemplateFormValues {
  return { ...initialFormValues(gatewayBackend), template: { description: "", warmPoolReplicas: "", updateStrategy: "OnReplenish" } };
}

/** The form showing a template already made, to edit it. */
export function templateValuesOf(template: SandboxTemplateSpec, gatewayBackend: GatewayDefaults["workspaceBackend"]): TemplateFormValues {
  return {
    ...formValuesOf(templateAsSandboxSpec(template), gatewayBackend),
    template: {
      description: template.description ?? "",
      warmPoolReplicas: template.warmPool ? String(template.warmPool.replicas) : "",
      updateStrategy: template.warmPool?.updateStrategy ?? "OnReplenish",
    },
  };
}

const REPLICAS_FIELD = "template.warmPoolReplicas";
const replicasProblem = (): SpecProblem => ({
  code: "warmPool.replicas",
  path: ["warmPool", "replicas"],
  message: `warm pool size must be a whole number from 0 to ${MAX_WARM_POOL_REPLICAS}, or empty for no warm pool`,
});

/** The template the form stands for; null replicas when the pool size is not a whole number. */
export function templateFromForm(values: TemplateFormValues, gatewayBackend: GatewayDefaults["workspaceBackend"]): SandboxTemplateSpecInput | null {
  const { name, namespace, ...sandbox } = specFromForm(values, gatewayBackend);
  const replicas = values.template.warmPoolReplicas.trim();
  if (replicas !== "" && !/^\d+$/.test(replicas)) return null;
  const description = values.template.description.trim();
  return {
    name: name ?? "",
    ...(namespace ? { namespace } : {}),
    ...(description ? { description } : {}),
    sandbox,
    ...(replicas === "" ? {} : { warmPool: { replicas: Number(replicas), updateStrategy: values.template.updateStrategy } }),
  };
}

/** The form field a template problem belongs on: its own fields, else the sandbox field under `sandbox`. */
export function templateFieldOf(path: ProblemPath): string | null {
  if (path[0] === "description") return "template.description";
  if (path[0] === "warmPool") return path[1] === "updateStrategy" ? "template.updateStrategy" : REPLICAS_FIELD;
  return formFieldOf(path[0] === "sandbox" ? path.slice(1) : path);
}

export function templateResolver(defaults: GatewayDefaults, limits: GatewayLimits) {
  return problemResolver<TemplateFormValues>((values) => {
    const template = templateFromForm(values, defaults.workspaceBackend);
    if (!template) return [replicasProblem()];
    const result = validateSandboxTemplate(template, defaults, limits);
    return result.ok ? [] : result.problems;
  }, templateFieldOf);
}
