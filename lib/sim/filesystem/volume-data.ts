import { z } from "zod";
import { FileSystemError } from "./file-system-error.ts";
import { formatSegments, splitPath } from "./paths.ts";

export const DEFAULT_FILE_MODE = 0o644;
export const DEFAULT_DIRECTORY_MODE = 0o755;

export interface FileNode {
  kind: "file";
  content: string;
  mtimeMs: number;
  mode: number;
}

export interface DirectoryNode {
  kind: "directory";
  children: Map<string, FileSystemNode>;
  mtimeMs: number;
  mode: number;
}

export type FileSystemNode = FileNode | DirectoryNode;

// Children are a list of named entries rather than an object keyed by name, so that a file called
// `__proto__` or `constructor` survives a JSON round trip.
const fileJsonSchema = z.object({
  name: z.string().min(1),
  kind: z.literal("file"),
  content: z.string(),
  mtimeMs: z.number(),
  mode: z.number().int(),
});

interface DirectoryJson {
  name: string;
  kind: "directory";
  mtimeMs: number;
  mode: number;
  children: EntryJson[];
}
type EntryJson = z.infer<typeof fileJsonSchema> | DirectoryJson;

const directoryJsonSchema: z.ZodType<DirectoryJson> = z.object({
  name: z.string(),
  kind: z.literal("directory"),
  mtimeMs: z.number(),
  mode: z.number().int(),
  get children(): z.ZodArray<z.ZodType<EntryJson>> {
    return z.array(z.union([fileJsonSchema, directoryJsonSchema]));
  },
});

export const volumeDataJsonSchema = z.object({ format: z.literal("berth.sim.volume/v1"), root: directoryJsonSchema });
export type VolumeDataJson = z.infer<typeof volumeDataJsonSchema>;

export function newDirectory(mtimeMs: number, mode = DEFAULT_DIRECTORY_MODE): DirectoryNode {
  return { kind: "directory", children: new Map(), mtimeMs, mode };
}

export function newFile(content: string, mtimeMs: number, mode = DEFAULT_FILE_MODE): FileNode {
  return { kind: "file", content, mtimeMs, mode };
}

export function copyNode(node: FileSystemNode): FileSystemNode {
  if (node.kind === "file") return { ...node };
  const children = new Map<string, FileSystemNode>();
  for (const [name, child] of node.children) children.set(name, copyNode(child));
  return { kind: "directory", children, mtimeMs: node.mtimeMs, mode: node.mode };
}

function nodeToJson(name: string, node: FileSystemNode): EntryJson {
  if (node.kind === "file") return { name, kind: "file", content: node.content, mtimeMs: node.mtimeMs, mode: node.mode };
  return {
    name,
    kind: "directory",
    mtimeMs: node.mtimeMs,
    mode: node.mode,
    children: [...node.children].map(([childName, child]) => nodeToJson(childName, child)),
  };
}

function nodeFromJson(entry: EntryJson): FileSystemNode {
  if (entry.kind === "file") return newFile(entry.content, entry.mtimeMs, entry.mode);
  const directory = newDirectory(entry.mtimeMs, entry.mode);
  for (const child of entry.children) directory.children.set(child.name, nodeFromJson(child));
  return directory;
}

export interface VolumeUsage {
  files: number;
  directories: number;
  bytes: number;
}

/**
 * The contents of one volume, or of an image's root file system: a tree of directories and UTF-8
 * text files. It knows nothing of mounts or read-only flags (those belong to how a container sees
 * it, see PodFileSystem), so the same VolumeData can be mounted by successive pods and persisted
 * by the simulated cluster between them.
 *
 * Paths given to its methods are relative to the volume's own root, with or without a leading '/'.
 */
export class VolumeData {
  readonly root: DirectoryNode;
  /** The JSON of the contents as they were when last asked for; dropped by every change. */
  private json: string | undefined;

  constructor(root: DirectoryNode = newDirectory(0)) {
    this.root = root;
  }

  /**
   * Every change to the contents comes through here (this class's own writes, and PodFileSystem's
   * for what a container does), so that the saved JSON is made again only for changed volumes.
   */
  changed(): void {
    this.json = undefined;
  }

  /** JSON.stringify(this.toJSON()), made once per change: a cluster of idle pods saves its volumes at almost no cost. */
  toJSONText(): string {
    return (this.json ??= JSON.stringify(this.toJSON()));
  }

  static empty(nowMs = 0): VolumeData {
    return new VolumeData(newDirectory(nowMs));
  }

  static fromJSON(json: unknown): VolumeData {
    const parsed = volumeDataJsonSchema.parse(json);
    const root = nodeFromJson(parsed.root);
    if (root.kind !== "directory") throw new Error("a volume's root must be a directory");
    return new VolumeData(root);
  }

  toJSON(): VolumeDataJson {
    const root = nodeToJson("", this.root);
    if (root.kind !== "directory") throw new Error("a volume's root must be a directory");
    return { format: "berth.sim.volume/v1", root };
  }

  /** A deep copy: snapshots, restores and every pod's own copy of its image root. */
  clone(): VolumeData {
    return new VolumeData(copyNode(this.root) as DirectoryNode);
  }

  lookup(path: string): FileSystemNode | undefined {
    let node: FileSystemNode = this.root;
    for (const segment of splitPath(path)) {
      if (node.kind !== "directory") return undefined;
      const child = node.children.get(segment);
      if (child === undefined) return undefined;
      node = child;
    }
    return node;
  }

  readText(path: string): string | undefined {
    const node = this.lookup(path);
    return node?.kind === "file" ? node.content : undefined;
  }

  /** Sorted names in a directory, or undefined when there is no directory there. */
  list(path = "/"): string[] | undefined {
    const node = this.lookup(path);
    return node?.kind === "directory" ? [...node.children.keys()].sort() : undefined;
  }

  /** Creates the directory and its parents; throws ENOTDIR when a file is in the way. */
  ensureDirectory(path: string, nowMs: number, mode = DEFAULT_DIRECTORY_MODE): DirectoryNode {
    let node: DirectoryNode = this.root;
    const walked: string[] = [];
    for (const segment of splitPath(path)) {
      walked.push(segment);
      const child = node.children.get(segment);
      if (child === undefined) {
        const created = newDirectory(nowMs, mode);
        this.changed();
        node.children.set(segment, created);
        node.mtimeMs = nowMs;
        node = created;
      } else if (child.kind === "directory") {
        node = child;
      } else {
        throw new FileSystemError("ENOTDIR", formatSegments(walked));
      }
    }
    return node;
  }

  /** Writes a file, creating its parent directories: for seeding images, fixtures and restores. */
  writeText(path: string, content: string, nowMs: number, mode = DEFAULT_FILE_MODE): void {
    const segments = splitPath(path);
    const name = segments.pop();
    if (name === undefined) throw new FileSystemError("EISDIR", "/");
    const parent = this.ensureDirectory(segments.join("/"), nowMs);
    const existing = parent.children.get(name);
    if (existing?.kind === "directory") throw new FileSystemError("EISDIR", formatSegments([...segments, name]));
    this.changed();
    parent.children.set(name, newFile(content, nowMs, mode));
    parent.mtimeMs = nowMs;
  }

  /** Calls `visit` for every directory (the root included) and file, parents before children. */
  walk(visit: (node: FileSystemNode) => void): void {
    const descend = (node: FileSystemNode): void => {
      visit(node);
      if (node.kind === "directory") for (const child of node.children.values()) descend(child);
    };
    descend(this.root);
  }

  usage(): VolumeUsage {
    const usage: VolumeUsage = { files: 0, directories: 0, bytes: 0 };
    this.walk((node) => {
      if (node.kind === "directory") {
        usage.directories += 1;
        return;
      }
      usage.files += 1;
      usage.bytes += Buffer.byteLength(node.content);
    });
    return usage;
  }
}
