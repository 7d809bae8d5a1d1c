import { BERTH_API_GROUP, BERTH_RESOURCE_NAMES, BERTH_RESOURCES } from "../domain/access.ts";

// Berth's own resources (berth.dev) declared to the API server as CustomResourceDefinitions that
// hold nothing: Berth keeps settings, maintenance runs and its audit log in its own store and
// only asks Kubernetes RBAC who may touch them. Declared, discovery knows them, so
// `kubectl auth can-i create maintenanceruns.berth.dev` asks about the right group and a
// ClusterRole naming them reads the same to people and to tools. Every object is refused, so
// no one mistakes them for a place to put things.

export const BERTH_RESOURCE_REFUSAL =
  "berth.dev resources only name what Berth lets people do (for RBAC and kubectl auth can-i); they hold no objects";

export interface CustomResourceDefinitionManifest {
  apiVersion: "apiextensions.k8s.io/v1";
  kind: "CustomResourceDefinition";
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    group: string;
    scope: "Cluster";
    names: { plural: string; singular: string; kind: string; listKind: string };
    versions: {
      name: string;
      served: true;
      storage: true;
      schema: { openAPIV3Schema: { type: "object"; "x-kubernetes-validations": { rule: string; message: string }[] } };
    }[];
  };
}

/** One definition per berth.dev resource, in the order Berth names them. */
export function berthResourceDefinitions(): CustomResourceDefinitionManifest[] {
  return (Object.keys(BERTH_RESOURCES) as (keyof typeof BERTH_RESOURCES)[]).map((key) => {
    const { resource } = BERTH_RESOURCES[key];
    const { kind, singular } = BERTH_RESOURCE_NAMES[key];
    return {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `${resource}.${BERTH_API_GROUP}`, labels: { "app.kubernetes.io/part-of": "berth" } },
      spec: {
        group: BERTH_API_GROUP,
        scope: "Cluster",
        names: { plural: resource, singular, kind, listKind: `${kind}List` },
        versions: [{
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", "x-kubernetes-validations": [{ rule: "false", message: BERTH_RESOURCE_REFUSAL }] } },
        }],
      },
    };
  });
}
