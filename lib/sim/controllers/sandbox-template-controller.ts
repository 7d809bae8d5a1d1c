import { keyOf, record, setControllerReference, splitKey } from "../k8s-objects.ts";
import { deepEqual, type KubeObject, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import { resourceId, type ObjectStore, type StoreEvent } from "../store/object-store.ts";
import { createAsApiServer } from "./create-as-api-server.ts";
import type { Reconciler } from "./reconciler.ts";
import {
  NETWORK_POLICIES, TEMPLATE_REF_HASH_LABEL, TEMPLATES, controllerKeys, isControlledBy, nameHash,
} from "./sandbox-extensions.ts";

// The SandboxTemplate controller (extensions/controllers/sandboxtemplate_controller.go): labels
// each template with the hash of its name, and keeps one NetworkPolicy per template,
// `<template>-network-policy`, selecting the pods made from it by that hash. Without a
// networkPolicy in the template the policy is the secure default: ingress only from the
// sandbox router, egress only to public addresses (cluster DNS included in what is blocked). An
// Unmanaged template has its policy removed; a policy of that name it does not control is never
// touched (and, when the template is managed, is an error).

const ROUTER_NAMESPACE = "agent-sandbox-system";

function defaultPolicySpec(hash: string): Record<string, unknown> {
  return {
    podSelector: { matchLabels: { [TEMPLATE_REF_HASH_LABEL]: hash } },
    policyTypes: ["Ingress", "Egress"],
    ingress: [{ from: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ROUTER_NAMESPACE } }, podSelector: { matchLabels: { app: "sandbox-router" } } }] }],
    egress: [
      {
        to: [
          { ipBlock: { cidr: "0.0.0.0/0", except: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"] } },
          { ipBlock: { cidr: "::/0", except: ["fc00::/7", "fe80::/10"] } },
        ],
      },
    ],
  };
}

function desiredPolicySpec(template: StoredObject): Record<string, unknown> {
  const hash = nameHash(template.metadata.name);
  const custom = record(template.spec).networkPolicy;
  if (custom === undefined) return defaultPolicySpec(hash);
  const { ingress, egress } = record(custom);
  return {
    podSelector: { matchLabels: { [TEMPLATE_REF_HASH_LABEL]: hash } },
    policyTypes: ["Ingress", "Egress"],
    ...(ingress !== undefined ? { ingress } : {}),
    ...(egress !== undefined ? { egress } : {}),
  };
}

export class SandboxTemplateController implements Reconciler {
  readonly name = "sandboxtemplate";

  constructor(private readonly store: ObjectStore) {}

  initialKeys(): string[] {
    return this.store.list(TEMPLATES).map(keyOf);
  }

  /** For(SandboxTemplate), Owns(NetworkPolicy). */
  keysFor(event: StoreEvent): string[] {
    if (event.resource === resourceId(TEMPLATES)) return [keyOf(event.object)];
    return event.resource === resourceId(NETWORK_POLICIES) ? controllerKeys(event, "SandboxTemplate") : [];
  }

  reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    let template = this.store.peek(TEMPLATES, namespace, name);
    if (!template || template.metadata.deletionTimestamp) return;
    template = this.ensureHashLabel(template);

    const policyName = `${name}-network-policy`;
    const existing = this.store.peek(NETWORK_POLICIES, namespace, policyName);
    if (record(template.spec).networkPolicyManagement === "Unmanaged") {
      if (existing && isControlledBy(existing, template)) this.store.delete(NETWORK_POLICIES, namespace, policyName, { preconditions: { uid: existing.metadata.uid } });
      return;
    }
    const desired = desiredPolicySpec(template);
    if (existing) {
      if (!isControlledBy(existing, template)) {
        throw new Error(`refusing to update NetworkPolicy "${policyName}" as it is not controlled by SandboxTemplate "${name}"`);
      }
      if (!deepEqual(existing.spec, desired)) this.store.update(NETWORK_POLICIES, { ...existing, spec: desired });
      return;
    }
    const policy: KubeObject = { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: { name: policyName, namespace }, spec: desired };
    setControllerReference(policy, template);
    try {
      createAsApiServer(this.store, NETWORK_POLICIES.group, NETWORK_POLICIES.resource, policy);
    } catch (error) {
      // Made by an earlier pass whose write this one did not see yet: the next event settles it.
      if (!(error instanceof StatusError && error.code === 409)) throw error;
    }
  }

  private ensureHashLabel(template: StoredObject): StoredObject {
    const hash = nameHash(template.metadata.name);
    if (template.metadata.labels?.[TEMPLATE_REF_HASH_LABEL] === hash) return template;
    return this.store.update(TEMPLATES, { ...template, metadata: { ...template.metadata, labels: { ...template.metadata.labels, [TEMPLATE_REF_HASH_LABEL]: hash } } });
  }
}
