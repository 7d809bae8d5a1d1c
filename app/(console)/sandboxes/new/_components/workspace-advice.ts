import type { StorageClassView } from "@/lib/domain/storage-class.ts";
import type { WorkspaceBackend } from "@/lib/domain/gateway-defaults.ts";
import type { ClaimOwnership, StorageClassChoice } from "@/lib/domain/workspace.ts";

// What the create form warns about before anything is created: the choices that look fine and
// then strand a sandbox or lose its work. Pure, so each warning is tested on its own.

export interface Advice {
  tone: "warning" | "info";
  text: string;
}

export interface WorkspaceChoice {
  backend: WorkspaceBackend;
  ownership: ClaimOwnership;
  storageClass: { choice: StorageClassChoice["kind"]; name: string };
  /** The gateway's workspace storage class: unset, "" (no class) or a name. */
  gatewayClass: string | undefined;
  /** The cluster's classes; null while they load or when they could not be read. */
  classes: StorageClassView[] | null;
}

/** The class a claim ends up with: "none", a class, or null when no class applies (no default). */
export function effectiveClass(choice: WorkspaceChoice): StorageClassView | "none" | "unknown" | null {
  const { classes } = choice;
  if (classes === null) return "unknown";
  const named = (name: string) => classes.find((one) => one.name === name) ?? "unknown";
  if (choice.storageClass.choice === "none") return "none";
  if (choice.storageClass.choice === "named") return named(choice.storageClass.name);
  if (choice.gatewayClass === "") return "none";
  if (choice.gatewayClass !== undefined) return named(choice.gatewayClass);
  return classes.find((one) => one.isDefault) ?? null;
}

export function workspaceAdvice(choice: WorkspaceChoice): Advice[] {
  if (choice.backend === "ephemeral") {
    return [{ tone: "warning", text: "An ephemeral workspace is an emptyDir: it starts empty with every new pod. An eviction, a drain, a node loss or a deleted pod loses everything in it. Choose a persistent volume to keep the work." }];
  }
  // Berth does not create an existing claim: its class was decided when it was made.
  if (choice.ownership === "existing") return [];
  const target = effectiveClass(choice);
  if (target === null) {
    return [{ tone: "warning", text: "This cluster has no default StorageClass, so a claim without a class stays Pending and the sandbox never starts. Pick a class below, or use an ephemeral workspace." }];
  }
  if (target === "none") {
    return [{ tone: "info", text: "With no class, only a pre-provisioned PersistentVolume without a class can bind the claim; until one exists the claim stays Pending." }];
  }
  if (target === "unknown") {
    const name = choice.storageClass.choice === "named" ? choice.storageClass.name : choice.gatewayClass;
    return choice.classes && name ? [{ tone: "warning", text: `This cluster has no StorageClass named ${name}: the claim would stay Pending. Pick one of the cluster's classes.` }] : [];
  }
  if (target.placement === "node-pinned") {
    return [{ tone: "warning", text: `${target.name} keeps the volume on one node: a drain or the loss of that node strands the sandbox until the node returns. Choose a portable class if the sandbox must move.` }];
  }
  return [];
}
