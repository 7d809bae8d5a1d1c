import { z } from "zod";

// Reading inside a claim: which path a person asks for, what Berth runs in a pod that mounts
// the claim to answer, and how it reads the answer back. Names are bytes on a volume; the API
// carries each as it decodes (UTF-8) and as it is safe to show. Pure.

/** The largest file Berth hands out; a bigger one is for `kubectl cp`. */
export const MAX_DOWNLOAD_BYTES = 10 * 1024 * 1024;
/** The most entries of one directory listed; the rest are counted as "more". */
export const MAX_LISTED_ENTRIES = 1000;
const MAX_PATH_CHARS = 4096;
const MAX_NAME_BYTES = 255;
const UTF8_ENCODER = new TextEncoder();

/**
 * A path inside the claim, from its root: `/`, `/notes/todo.md`. Absolute, no `.` or `..`
 * segments (nothing above the root can be named), no NUL; repeated slashes count as one.
 */
export const volumePathSchema = z
  .string()
  .max(MAX_PATH_CHARS, `path must be at most ${MAX_PATH_CHARS} characters`)
  .refine((path) => path.startsWith("/"), "path must start with / (the claim's root), e.g. /notes")
  .refine((path) => !path.includes("\0"), "path must not contain a NUL character")
  .refine((path) => path.split("/").every((segment) => segment !== "." && segment !== ".."), "path must not contain . or .. segments: name each directory from the claim's root")
  .refine((path) => path.split("/").every((segment) => UTF8_ENCODER.encode(segment).length <= MAX_NAME_BYTES), `each name in path must be at most ${MAX_NAME_BYTES} bytes`);

export const volumeFilesQuerySchema = z.object({ path: volumePathSchema.default("/") });
export const volumeFileQuerySchema = z.object({ path: volumePathSchema.refine((path) => pathSegments(path).length > 0, "path must name a file, e.g. /notes/todo.md") });

/** The names along a path, root first; `/` has none. */
export function pathSegments(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

export const volumeFileKindSchema = z.enum(["directory", "file", "symlink", "other"]);
export type VolumeFileKind = z.infer<typeof volumeFileKindSchema>;

export const volumeFileSchema = z.object({
  /** The name as UTF-8 decodes it (invalid bytes as U+FFFD). */
  name: z.string(),
  /** The name as it is safe to show: control, format and direction characters, and bytes that are not UTF-8, written as escapes. */
  displayName: z.string(),
  /** Its path in the claim, to list or download; null when the name is not UTF-8 and so cannot be asked for by path. */
  path: z.string().nullable(),
  kind: volumeFileKindSchema,
  sizeBytes: z.number().int().nonnegative(),
  modifiedAt: z.iso.datetime(),
});
export type VolumeFile = z.infer<typeof volumeFileSchema>;

/** How Berth reached the claim's files. */
export const volumeReaderSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("mounting-pod"), pod: z.string(), container: z.string(), mountPath: z.string(), subPath: z.string().nullable() }),
  z.object({ kind: z.literal("helper-pod"), pod: z.string(), expiresAt: z.iso.datetime() }),
]);
export type VolumeReader = z.infer<typeof volumeReaderSchema>;

export const volumeDirectorySchema = z.object({
  namespace: z.string(),
  claim: z.string(),
  path: z.string(),
  reader: volumeReaderSchema,
  /** Directories first, then by name. */
  entries: z.array(volumeFileSchema),
  /** More entries than MAX_LISTED_ENTRIES: those past it are not listed. */
  truncated: z.boolean(),
});
export type VolumeDirectory = z.infer<typeof volumeDirectorySchema>;

// What runs in the pod. Arguments arrive as argv, never spliced into the script: `$1` the mount
// path, then the path's names one by one, so the script can refuse to pass through a symbolic
// link (which could point out of the volume). Exit codes say what went wrong.

export const READER_EXIT = { symlink: 3, missing: 4, wrongKind: 5, denied: 6, tooLarge: 7 } as const;

/**
 * Lists a directory: per entry `<raw mode in hex> <size> <mtime seconds>\n<name>\0`, and a last
 * `more\n\0` when there were more than the limit. `.*` and `*` both, without `.` and `..`.
 */
export const LIST_SCRIPT = `dir=$1; shift
for part in "$@"; do dir="$dir/$part"; [ -L "$dir" ] && exit ${READER_EXIT.symlink}; done
[ -e "$dir" ] || exit ${READER_EXIT.missing}
[ -d "$dir" ] || exit ${READER_EXIT.wrongKind}
cd -- "$dir" 2>/dev/null || exit ${READER_EXIT.denied}
n=0
for f in .* *; do
  case "$f" in .|..) continue ;; esac
  [ -e "$f" ] || [ -L "$f" ] || continue
  n=$((n + 1))
  if [ "$n" -gt ${MAX_LISTED_ENTRIES} ]; then printf 'more\\n\\0'; break; fi
  stat -c '%f %s %Y' -- "$f" 2>/dev/null || continue
  printf '%s\\0' "$f"
done`;

/** Writes a regular file out whole, if it is at most `$2` bytes; otherwise says its size on stderr. */
export const READ_SCRIPT = `file=$1; limit=$2; shift 2
for part in "$@"; do file="$file/$part"; [ -L "$file" ] && exit ${READER_EXIT.symlink}; done
[ -e "$file" ] || exit ${READER_EXIT.missing}
[ -f "$file" ] || exit ${READER_EXIT.wrongKind}
size=$(stat -c %s -- "$file") || exit ${READER_EXIT.denied}
if [ "$size" -gt "$limit" ]; then echo "$size" >&2; exit ${READER_EXIT.tooLarge}; fi
cat -- "$file" 2>/dev/null || exit ${READER_EXIT.denied}`;

export function listCommand(mountPath: string, path: string): string[] {
  return ["sh", "-c", LIST_SCRIPT, "berth-list", mountPath, ...pathSegments(path)];
}

export function readCommand(mountPath: string, path: string): string[] {
  return ["sh", "-c", READ_SCRIPT, "berth-read", mountPath, String(MAX_DOWNLOAD_BYTES), ...pathSegments(path)];
}

const FILE_TYPE_MASK = 0o170000;
const KINDS = new Map<number, VolumeFileKind>([
  [0o040000, "directory"],
  [0o100000, "file"],
  [0o120000, "symlink"],
]);

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const LOSSY_UTF8 = new TextDecoder("utf-8");

/** Characters that would hide or reorder what is around them: C0 and C1 controls, direction marks and overrides, zero-width ones. */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

function escaped(character: string): string {
  if (character === "\n") return "\\n";
  if (character === "\t") return "\\t";
  const code = character.codePointAt(0)!;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
}

/** A name as it is safe to put in front of a person: what would mislead, escaped; bytes that are not UTF-8 as `\xNN`. */
export function displayName(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes).replace(/\\/g, "\\\\").replace(UNSAFE_CHARACTERS, escaped);
  } catch {
    return Array.from(bytes, (byte) => (byte === 0x5c ? "\\\\" : byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, "0")}`)).join("");
  }
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const RECORD = /^([0-9a-f]{1,7}) (\d{1,20}) (-?\d{1,20})$/;

export class ListingFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListingFormatError";
  }
}

/** The entries LIST_SCRIPT wrote, for the directory at `path`; directories first, then by name. */
export function parseListing(output: Uint8Array, path: string): { entries: VolumeFile[]; truncated: boolean } {
  const bytes = output;
  const entries: VolumeFile[] = [];
  let truncated = false;
  let at = 0;
  while (at < bytes.length) {
    const lineEnd = bytes.indexOf(0x0a, at);
    const nameEnd = lineEnd === -1 ? -1 : bytes.indexOf(0x00, lineEnd + 1);
    if (nameEnd === -1) throw new ListingFormatError(`the listing of ${path} ended part-way through an entry`);
    // What a pod writes is not trusted: a header is short, a name at most a file system's limit.
    if (lineEnd - at > 64 || nameEnd - lineEnd - 1 > 4 * MAX_NAME_BYTES) throw new ListingFormatError(`the listing of ${path} has an entry longer than any file system writes`);
    const header = String.fromCharCode(...bytes.subarray(at, lineEnd));
    const name = bytes.subarray(lineEnd + 1, nameEnd);
    at = nameEnd + 1;
    if (header === "more" && name.length === 0) {
      truncated = true;
      continue;
    }
    const match = RECORD.exec(header);
    if (!match || name.length === 0) throw new ListingFormatError(`the listing of ${path} has an entry Berth cannot read: ${JSON.stringify(header)}`);
    const parent = path.endsWith("/") ? path : `${path}/`;
    entries.push({
      name: LOSSY_UTF8.decode(name),
      displayName: displayName(name),
      path: isUtf8(name) ? `${parent}${LOSSY_UTF8.decode(name)}` : null,
      kind: KINDS.get(Number.parseInt(match[1]!, 16) & FILE_TYPE_MASK) ?? "other",
      sizeBytes: Number(match[2]),
      modifiedAt: new Date(Number(match[3]) * 1000).toISOString(),
    });
  }
  entries.sort((a, b) => Number(b.kind === "directory") - Number(a.kind === "directory") || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, truncated };
}

/** A name for a downloaded file that every browser takes as it is: the base name, in RFC 5987 form. */
export function contentDisposition(path: string): string {
  const base = pathSegments(path).at(-1) ?? "file";
  const ascii = base.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}
