import type { PodFileSystem } from "../filesystem/pod-file-system.ts";

/**
 * Shell patterns (`*`, `?`, `[…]`) for pathname expansion and `${x%pattern}`. A backslash makes
 * the next character literal; the expander uses that to protect quoted characters.
 */

export function hasGlobMeta(pattern: string): boolean {
  for (let index = 0; index < pattern.length; index += 1) {
    const c = pattern[index];
    if (c === "\\") index += 1;
    else if (c === "*" || c === "?") return true;
    else if (c === "[" && classEnd(pattern, index) > 0) return true;
  }
  return false;
}

/** Escapes text so that a pattern matches it literally. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, "\\$&");
}

export function unescapeGlob(pattern: string): string {
  return pattern.replace(/\\(.)/gs, "$1");
}

/** Index of the `]` closing the bracket expression opened at `open`, or -1. */
function classEnd(pattern: string, open: number): number {
  let index = open + 1;
  if (pattern[index] === "!" || pattern[index] === "^") index += 1;
  if (pattern[index] === "]") index += 1;
  for (; index < pattern.length; index += 1) if (pattern[index] === "]") return index;
  return -1;
}

function regexSource(pattern: string): string {
  let source = "";
  for (let index = 0; index < pattern.length; index += 1) {
    const c = pattern[index] ?? "";
    if (c === "\\") {
      index += 1;
      source += escapeRegex(pattern[index] ?? "\\");
    } else if (c === "*") source += ".*";
    else if (c === "?") source += ".";
    else if (c === "[" && classEnd(pattern, index) > 0) {
      const end = classEnd(pattern, index);
      let body = pattern.slice(index + 1, end);
      let negated = "";
      if (body.startsWith("!") || body.startsWith("^")) {
        negated = "^";
        body = body.slice(1);
      }
      source += `[${negated}${body.replace(/[\\\]^[]/g, "\\$&")}]`;
      index = end;
    } else source += escapeRegex(c);
  }
  return source;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

export function globMatches(pattern: string, text: string): boolean {
  return new RegExp(`^${regexSource(pattern)}$`, "s").test(text);
}

/** `${value#p}`, `##`, `%`, `%%`: strip the shortest or longest prefix or suffix matching `pattern`. */
export function removeMatching(value: string, pattern: string, operator: "#" | "##" | "%" | "%%"): string {
  const matches = (text: string) => globMatches(pattern, text);
  const length = value.length;
  switch (operator) {
    case "#":
      for (let end = 0; end <= length; end += 1) if (matches(value.slice(0, end))) return value.slice(end);
      return value;
    case "##":
      for (let end = length; end >= 0; end -= 1) if (matches(value.slice(0, end))) return value.slice(end);
      return value;
    case "%":
      for (let start = length; start >= 0; start -= 1) if (matches(value.slice(start))) return value.slice(0, start);
      return value;
    case "%%":
      for (let start = 0; start <= length; start += 1) if (matches(value.slice(start))) return value.slice(0, start);
      return value;
  }
}

/** Pathname expansion: the sorted paths matching `pattern`, or none (the caller then keeps the word). */
export function expandPathname(pattern: string, fs: PodFileSystem, cwd: string): string[] {
  const absolute = pattern.startsWith("/");
  const wantsDirectory = pattern.endsWith("/");
  const components = pattern.split("/").filter((component) => component !== "");
  let candidates = [absolute ? "/" : ""];
  for (const component of components) {
    const next: string[] = [];
    for (const prefix of candidates) {
      if (!hasGlobMeta(component)) {
        next.push(join(prefix, unescapeGlob(component)));
        continue;
      }
      let names: string[];
      try {
        names = fs.readdir(prefix === "" ? "." : prefix, { cwd });
      } catch {
        continue;
      }
      const explicitDot = component.startsWith(".") || component.startsWith("\\.");
      for (const name of names) {
        if (name.startsWith(".") && !explicitDot) continue;
        if (globMatches(component, name)) next.push(join(prefix, name));
      }
    }
    candidates = next;
  }
  return candidates
    .filter((path) => {
      try {
        const stat = fs.stat(path, { cwd });
        return !wantsDirectory || stat.kind === "directory";
      } catch {
        return false;
      }
    })
    .map((path) => (wantsDirectory ? `${path}/` : path))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

function join(prefix: string, name: string): string {
  if (prefix === "") return name;
  if (prefix.endsWith("/")) return `${prefix}${name}`;
  return `${prefix}/${name}`;
}
