import type { V1PersistentVolumeClaim, V1Pod } from "@kubernetes/client-node";
import type { Volume } from "../domain/volume.ts";
import type { StoredSandbox } from "../kube/sandbox-resources.ts";

// Who would lose a claim if it were deleted now, in words for the 409 that refuses it: a pod
// that mounts it, a Sandbox that mounts it (also a stopped one: it mounts it again on start) or
// makes it from a template, and the live sandbox Berth has it on record for.

interface SandboxSpecShape {
  podTemplate?: { spec?: { volumes?: { persistentVolumeClaim?: { claimName?: string } }[] } };
  volumeClaimTemplates?: { metadata?: { name?: string } }[];
}

function sandboxUses(sandbox: StoredSandbox, claimName: string): boolean {
  const spec = (sandbox.spec ?? {}) as SandboxSpecShape;
  if (spec.podTemplate?.spec?.volumes?.some((volume) => volume.persistentVolumeClaim?.claimName === claimName)) return true;
  // agent-sandbox names a template's claim <template>-<sandbox>.
  return (spec.volumeClaimTemplates ?? []).some((template) => `${template.metadata?.name}-${sandbox.metadata.name}` === claimName);
}

export function claimUsers(claim: V1PersistentVolumeClaim, known: Pick<Volume, "sandbox" | "ownership">, pods: V1Pod[], sandboxes: StoredSandbox[]): string[] {
  const name = claim.metadata?.name ?? "";
  const users: string[] = [];
  const sandboxNames = new Set<string>();
  if (known.sandbox && !known.sandbox.deleted) {
    users.push(`sandbox ${known.sandbox.name} (ownership ${known.ownership ?? "unknown"})`);
    sandboxNames.add(known.sandbox.name);
  }
  for (const sandbox of sandboxes) {
    if (sandboxNames.has(sandbox.metadata.name) || !sandboxUses(sandbox, name)) continue;
    users.push(`sandbox ${sandbox.metadata.name}`);
    sandboxNames.add(sandbox.metadata.name);
  }
  for (const pod of pods) {
    if (["Succeeded", "Failed"].includes(pod.status?.phase ?? "")) continue;
    if (!pod.spec?.volumes?.some((volume) => volume.persistentVolumeClaim?.claimName === name)) continue;
    users.push(`pod ${pod.metadata?.name}${pod.spec.nodeName ? ` on ${pod.spec.nodeName}` : ""}`);
  }
  return users;
}
