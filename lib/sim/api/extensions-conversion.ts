import { type KubeObject } from "../objects.ts";
import type { VersionConversion } from "./resources.ts";

// agent-sandbox's conversion webhook for extensions.agents.x-k8s.io (extensions/api/v1alpha1/
// *_conversion.go at v0.5.6): v1beta1 is stored; a v1alpha1 write is kept whole in a state
// annotation (stripped from every v1alpha1 read), and the few fields that differ are moved.

const GROUP = "extensions.agents.x-k8s.io";
const TEMPLATE_STATE = "api.agents.x-k8s.io/v1alpha1-sandboxtemplate-state";
const WARM_POOL_STATE = "api.agents.x-k8s.io/v1alpha1-sandboxwarmpool-state";
const CLAIM_STATE = "api.agents.x-k8s.io/v1alpha1-sandboxclaim-state";
/** Where a v1alpha1 client sees (and writes) a template's v1beta1-only volumeClaimTemplatesPolicy. */
export const CLAIM_TEMPLATES_POLICY_ANNOTATION = "api.agents.x-k8s.io/v1beta1-volume-claim-templates-policy";
const SHADOW_POOL_PREFIX = "shadow-pool-";

type Fields = Record<string, unknown>;
const fields = (value: unknown): Fields => ({ ...(value as Fields | undefined) });

function withAnnotations(object: KubeObject, change: (annotations: Record<string, string>) => void): KubeObject["metadata"] {
  const annotations = { ...object.metadata?.annotations };
  change(annotations);
  const metadata = { ...object.metadata };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
  return metadata;
}

/** The v1alpha1 object as written, without its own state annotation: what the webhook keeps. */
function stateOf(object: KubeObject, annotation: string): string {
  return JSON.stringify({ ...object, metadata: withAnnotations(object, (annotations) => delete annotations[annotation]) });
}

function conversion(stateAnnotation: string, to: (object: KubeObject) => KubeObject, from: (object: KubeObject) => KubeObject): VersionConversion {
  return {
    toStorage(object, version) {
      if (version !== "v1alpha1") return object;
      const converted = to(object);
      const state = stateOf(object, stateAnnotation);
      return { ...converted, apiVersion: `${GROUP}/v1beta1`, metadata: withAnnotations(converted, (annotations) => (annotations[stateAnnotation] = state)) };
    },
    fromStorage(object, version) {
      if (version !== "v1alpha1") return object;
      const converted = from(object);
      return { ...converted, apiVersion: `${GROUP}/v1alpha1`, metadata: withAnnotations(converted, (annotations) => delete annotations[stateAnnotation]) };
    },
  };
}

/** SandboxTemplate: v1beta1's volumeClaimTemplatesPolicy travels in an annotation in v1alpha1. */
export const sandboxTemplateConversion = conversion(
  TEMPLATE_STATE,
  (object) => {
    const spec = fields(object.spec);
    const policy = object.metadata?.annotations?.[CLAIM_TEMPLATES_POLICY_ANNOTATION];
    if (policy !== undefined) spec.volumeClaimTemplatesPolicy = policy;
    return { ...object, spec, metadata: withAnnotations(object, (annotations) => delete annotations[CLAIM_TEMPLATES_POLICY_ANNOTATION]) };
  },
  (object) => {
    const spec = fields(object.spec);
    const policy = spec.volumeClaimTemplatesPolicy;
    delete spec.volumeClaimTemplatesPolicy;
    const metadata = withAnnotations(object, (annotations) => {
      if (typeof policy === "string" && policy !== "") annotations[CLAIM_TEMPLATES_POLICY_ANNOTATION] = policy;
      else delete annotations[CLAIM_TEMPLATES_POLICY_ANNOTATION];
    });
    return { ...object, spec, metadata };
  },
);

/** SandboxWarmPool: the same fields; v1alpha1's replicas is not optional (1 when v1beta1 has none). */
export const sandboxWarmPoolConversion = conversion(
  WARM_POOL_STATE,
  (object) => object,
  (object) => ({ ...object, spec: { replicas: 1, ...fields(object.spec) } }),
);

const isSpecificPool = (policy: unknown) => typeof policy === "string" && !["", "none", "default"].includes(policy);
const stripRandomSuffix = (name: string) => (name.lastIndexOf("-") === -1 ? name : name.slice(0, name.lastIndexOf("-")));

/**
 * SandboxClaim: v1alpha1 names a template and a pool policy (`warmpool`: none, default or a
 * pool's name); v1beta1 names a warm pool only, a template without a pool of its own becoming
 * `shadow-pool-<template>`. The way back restores the v1alpha1 fields from the state annotation
 * while they still agree with the pool.
 */
export const sandboxClaimConversion = conversion(
  CLAIM_STATE,
  (object) => {
    const spec = fields(object.spec);
    const sandboxName = String(fields(fields(object.status).sandbox).name ?? "");
    const templateName = String(fields(spec.sandboxTemplateRef).name ?? "");
    const pool = isSpecificPool(spec.warmpool)
      ? String(spec.warmpool)
      : sandboxName !== "" && sandboxName !== object.metadata?.name
        ? stripRandomSuffix(sandboxName)
        : `${SHADOW_POOL_PREFIX}${templateName}`;
    delete spec.sandboxTemplateRef;
    delete spec.warmpool;
    spec.warmPoolRef = { name: pool };
    return { ...object, spec };
  },
  (object) => {
    const spec = fields(object.spec);
    const pool = String(fields(spec.warmPoolRef).name ?? "");
    // v1alpha1 has no claim-level volumeClaimTemplates: they are not seen there.
    delete spec.warmPoolRef;
    delete spec.volumeClaimTemplates;
    if (pool.startsWith(SHADOW_POOL_PREFIX)) {
      spec.sandboxTemplateRef = { name: pool.slice(SHADOW_POOL_PREFIX.length) };
      spec.warmpool = "default";
    } else {
      spec.sandboxTemplateRef = { name: pool };
      spec.warmpool = pool;
    }
    const state = object.metadata?.annotations?.[CLAIM_STATE];
    if (state !== undefined) {
      const original = fields(JSON.parse(state) as unknown);
      const originalSpec = fields(original.spec);
      const expected = isSpecificPool(originalSpec.warmpool) ? String(originalSpec.warmpool) : String(fields(originalSpec.sandboxTemplateRef).name ?? "");
      const sandboxName = String(fields(fields(object.status).sandbox).name ?? "");
      const matching = pool === expected || pool === `${SHADOW_POOL_PREFIX}${expected}` || (sandboxName !== "" && (pool === sandboxName || pool === stripRandomSuffix(sandboxName)));
      spec.sandboxTemplateRef = originalSpec.sandboxTemplateRef;
      spec.warmpool = matching ? originalSpec.warmpool : pool;
      if (spec.warmpool === undefined) delete spec.warmpool;
    }
    return { ...object, spec };
  },
);
