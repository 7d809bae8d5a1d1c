/**
 * Paths inside a container are resolved lexically: the simulated file systems have no symlinks,
 * so `..` can be folded without looking at the tree, exactly as the kernel would end up doing.
 */

export function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "" && segment !== ".");
}

/** The absolute, normalised segments of `path` seen from `cwd` (itself absolute). */
export function resolveSegments(path: string, cwd = "/"): string[] {
  const start = path.startsWith("/") ? [] : splitPath(cwd);
  const segments = [...start];
  for (const segment of splitPath(path)) {
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments;
}

export function formatSegments(segments: readonly string[]): string {
  return `/${segments.join("/")}`;
}

export function resolvePath(path: string, cwd = "/"): string {
  return formatSegments(resolveSegments(path, cwd));
}

export function isPrefix(prefix: readonly string[], segments: readonly string[]): boolean {
  return prefix.length <= segments.length && prefix.every((segment, index) => segments[index] === segment);
}

export function baseName(path: string): string {
  const segments = splitPath(path);
  return segments.at(-1) ?? (path.startsWith("/") ? "/" : ".");
}

export function dirName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === "") return path.startsWith("/") ? "/" : ".";
  const slash = trimmed.lastIndexOf("/");
  if (slash < 0) return ".";
  const parent = trimmed.slice(0, slash).replace(/\/+$/, "");
  return parent === "" ? "/" : parent;
}
