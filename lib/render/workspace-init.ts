import { shellWord } from "../domain/shell-words.ts";
import { WORKSPACE_SEED_PATH, WORKSPACE_VOLUME_NAME } from "../domain/workspace.ts";
import type { Container } from "./manifests.ts";
import { containerSecurityContext } from "./pod-security.ts";

// The workspace-init container of OpenShell's Kubernetes driver
// (NVIDIA/OpenShell crates/openshell-driver-kubernetes/src/driver.rs, apply_workspace_persistence):
// the agent's image, with the workspace volume mounted somewhere other than the
// workspace path, because at the workspace path the volume hides the image's own files that
// it has to copy. It copies the image's workspace directory into the volume once, guarded by a
// sentinel file, with a tar stream rather than `cp -a` (OpenShell found GNU cp failing on
// self-referential symlinks in images) and skips the copy for images without that directory.
//
// Differences from OpenShell, on purpose:
// - the seed mount is WORKSPACE_SEED_PATH (OpenShell used /workspace-pvc, later
//   /mnt/openshell-workspace) and the source is the sandbox's own workspace mount path,
//   which is /sandbox unless the user or gateway moved it;
// - OpenShell never rendered an ephemeral workspace; Berth's emptyDir gets the same container.
//   A new pod always has an empty emptyDir, so it is seeded at every pod start, and the sentinel
//   still matters: init containers run again when the kubelet recreates the pod sandbox, while
//   the emptyDir survives that, and copying again would revert files the agent has changed.

export const WORKSPACE_INIT_CONTAINER_NAME = "workspace-init";
export const WORKSPACE_SENTINEL = ".workspace-initialized";

/** Copies the image's `mountPath` into the volume at `seedPath`, once. */
export function workspaceSeedScript(mountPath: string, seedPath: string = WORKSPACE_SEED_PATH): string {
  const source = shellWord(mountPath);
  const target = shellWord(seedPath);
  const sentinel = shellWord(`${seedPath}/${WORKSPACE_SENTINEL}`);
  return [
    `if [ ! -f ${sentinel} ]; then`,
    `if [ -d ${source} ]; then tar -C ${source} -cf - . | tar -C ${target} -xpf -; fi &&`,
    `touch ${sentinel};`,
    "fi",
  ].join(" ");
}

export function workspaceInitContainer(image: string, mountPath: string): Container {
  return {
    name: WORKSPACE_INIT_CONTAINER_NAME,
    image,
    command: ["sh", "-c", workspaceSeedScript(mountPath)],
    // Not root, unlike OpenShell: the pod's fsGroup makes the volume writable for the sandbox
    // user, and the copy keeps the files' modes (their owner becomes that user, as the agent is).
    securityContext: containerSecurityContext(),
    volumeMounts: [{ name: WORKSPACE_VOLUME_NAME, mountPath: WORKSPACE_SEED_PATH }],
  };
}
