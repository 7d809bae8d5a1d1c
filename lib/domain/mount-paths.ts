// Path rules for where volumes are mounted in the agent container. The kubelet refuses some of
// these at pod creation (a relative mountPath, a subPath with ".."), but by then the Sandbox
// already exists and the user only sees a pod that never starts; others (two volumes at one path,
// one volume hidden under another) the API server accepts and the agent silently sees the wrong
// files. Checking here turns both into a message next to the field.

/**
 * Where the workspace-init container mounts the workspace volume. It cannot use the workspace
 * mount path itself, because there the volume would hide the image's own files it has to copy.
 * A workspace mounted here, above or below it would make the init container copy the volume
 * into itself, so the path is reserved.
 */
export const WORKSPACE_SEED_PATH = "/mnt/berth-workspace";

/** The kernel's and the runtime's own file systems: a volume at or under one breaks the container. */
const SYSTEM_TREES = ["/proc", "/sys", "/dev", "/var/run/secrets", "/run/secrets"];
/** Directories the image's programs live in: a volume there hides them (one below them is fine). */
const SYSTEM_DIRECTORIES = ["/bin", "/boot", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/sbin", "/usr", "/var", "/run"];

/** Longer than any real mount path; kept short so that the path is safe in a shell line and a message. */
export const MAX_MOUNT_PATH_LENGTH = 512;
/** Characters a mount path may hold: letters, digits and `._-/@+,=~`. No spaces, quotes or shell syntax. */
const MOUNT_PATH_CHARACTERS = /^[A-Za-z0-9._\-/@+,=~]+$/;

/** Why `path` is not a usable mount path, or null when it is. */
export function mountPathProblem(path: string): string | null {
  if (!path.startsWith("/")) return "must be an absolute path such as /sandbox or /data/cache";
  if (path.length > MAX_MOUNT_PATH_LENGTH) return `must be at most ${MAX_MOUNT_PATH_LENGTH} characters`;
  if (!MOUNT_PATH_CHARACTERS.test(path)) return "may hold only letters, digits and . _ - / @ + , = ~ (no spaces, quotes or control characters)";
  if (path === "/") return "cannot be / (it would hide the whole container file system)";
  const tree = SYSTEM_TREES.find((system) => path === system || path.startsWith(`${system}/`));
  if (tree) return `cannot be at or inside ${tree}: the kernel or the container runtime owns it`;
  if (SYSTEM_DIRECTORIES.includes(path)) return `cannot be ${path}: it would hide the image's own programs and libraries there; mount below it (${path}/…) or elsewhere`;
  if (path.endsWith("/")) return "must not end with '/'";
  const segments = path.slice(1).split("/");
  if (segments.some((segment) => segment === "")) return "must not contain '//'";
  if (segments.some((segment) => segment === "." || segment === "..")) return "must not contain '.' or '..' segments";
  return null;
}

/** Why `path` cannot be where workspaces are mounted, or null when it can. */
export function workspaceMountPathProblem(path: string): string | null {
  return mountPathProblem(path) ?? (pathsOverlap(path, WORKSPACE_SEED_PATH) ? `cannot be at, above or inside ${WORKSPACE_SEED_PATH}: Berth uses it to seed the workspace` : null);
}

/** Why `subPath` cannot be used, or null when it can. */
export function subPathProblem(subPath: string): string | null {
  if (subPath.startsWith("/")) return "must be relative to the volume root (remove the leading '/')";
  if (subPath.split("/").some((segment) => segment === "..")) return "must not contain '..' (it would reach outside the volume)";
  return null;
}

/** True when one path is the other or lies inside it: mounting both would hide files. */
export function pathsOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
