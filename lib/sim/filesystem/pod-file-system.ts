import { FileSystemError } from "./file-system-error.ts";
import { formatSegments, isPrefix, resolveSegments, splitPath } from "./paths.ts";
import {
  DEFAULT_DIRECTORY_MODE,
  type DirectoryNode,
  type FileSystemNode,
  type VolumeData,
  newDirectory,
  newFile,
} from "./volume-data.ts";

export interface VolumeMount {
  /** Absolute path inside the container. */
  mountPath: string;
  volume: VolumeData;
  readOnly?: boolean;
  /** A directory inside the volume to mount instead of its root; created when missing, as the kubelet does. */
  subPath?: string;
}

export interface PodFileSystemOptions {
  /** The container's own root: the pod's copy of its image (see imageRootFor). */
  root: VolumeData;
  mounts?: readonly VolumeMount[];
  /** `securityContext.readOnlyRootFilesystem`. */
  readOnlyRoot?: boolean;
  /** Milliseconds since the epoch, from the simulated cluster's clock; stamps mtimes. */
  clock?: () => number;
}

export type FileKind = "file" | "directory" | "device";

export interface FileStat {
  /** Absolute, normalised path. */
  path: string;
  kind: FileKind;
  size: number;
  mtimeMs: number;
  mode: number;
  readOnly: boolean;
}

export interface PathOptions {
  /** What relative paths are relative to; `/` when absent. */
  cwd?: string;
}

/** The null device is the one special file scripts use constantly (`>/dev/null`, `</dev/null`). */
const NULL_DEVICE = "/dev/null";
const DIRECTORY_SIZE = 4096;

interface MountedVolume {
  segments: string[];
  volume: VolumeData;
  base: string[];
  readOnly: boolean;
}

interface Location {
  path: string;
  volume: VolumeData;
  readOnly: boolean;
  /** Path inside the volume, subPath included. */
  inVolume: string[];
  /** True for the mount point itself (or `/`): it belongs to the mount and cannot be unlinked. */
  isMountRoot: boolean;
}

interface Found {
  node: FileSystemNode | undefined;
  /** Absent for a mount root. */
  parent: DirectoryNode | undefined;
  name: string | undefined;
}

/**
 * What one container sees: its root file system plus volume mounts, resolved by the longest
 * mount prefix. Every write lands in the VolumeData that backs the path, so what a pod writes
 * to a PVC's volume outlives it and what it writes to its root or an emptyDir does not: the
 * kubelet decides which VolumeData each mount gets.
 *
 * Operations throw FileSystemError with the errno the kernel would give.
 */
export class PodFileSystem {
  private readonly mounted: MountedVolume[];
  private readonly clock: () => number;

  constructor(options: PodFileSystemOptions) {
    this.clock = options.clock ?? Date.now;
    const rootMount: MountedVolume = { segments: [], volume: options.root, base: [], readOnly: options.readOnlyRoot ?? false };
    const mounts = (options.mounts ?? []).map((mount) => ({
      segments: resolveSegments(mount.mountPath),
      volume: mount.volume,
      base: splitPath(mount.subPath ?? ""),
      readOnly: mount.readOnly ?? false,
    }));
    // Deepest first, so that the first prefix match is the longest; a later duplicate wins, as the last bind mount would.
    this.mounted = [...mounts.reverse(), rootMount].sort((a, b) => b.segments.length - a.segments.length);
    for (const mount of mounts) {
      if (mount.base.length > 0) mount.volume.ensureDirectory(mount.base.join("/"), this.clock());
    }
    for (const mount of [...mounts].sort((a, b) => a.segments.length - b.segments.length)) this.createMountPoint(mount.segments);
  }

  resolve(path: string, cwd = "/"): string {
    return formatSegments(resolveSegments(path, cwd));
  }

  isMountPoint(path: string, options: PathOptions = {}): boolean {
    return this.locate(path, options).isMountRoot;
  }

  exists(path: string, options: PathOptions = {}): boolean {
    try {
      this.stat(path, options);
      return true;
    } catch {
      return false;
    }
  }

  stat(path: string, options: PathOptions = {}): FileStat {
    const location = this.locate(path, options);
    if (location.path === NULL_DEVICE) return { path: location.path, kind: "device", size: 0, mtimeMs: 0, mode: 0o666, readOnly: false };
    const { node } = this.find(location);
    if (node === undefined) throw new FileSystemError("ENOENT", location.path);
    return {
      path: location.path,
      kind: node.kind,
      size: node.kind === "file" ? Buffer.byteLength(node.content) : DIRECTORY_SIZE,
      mtimeMs: node.mtimeMs,
      mode: node.mode,
      readOnly: location.readOnly,
    };
  }

  readFile(path: string, options: PathOptions = {}): string {
    const location = this.locate(path, options);
    if (location.path === NULL_DEVICE) return "";
    const { node } = this.find(location);
    if (node === undefined) throw new FileSystemError("ENOENT", location.path);
    if (node.kind === "directory") throw new FileSystemError("EISDIR", location.path);
    return node.content;
  }

  /** Creates or truncates (or, with `append`, extends) a file; its directory must exist. */
  writeFile(path: string, content: string, options: PathOptions & { append?: boolean; mode?: number } = {}): void {
    const location = this.locate(path, options);
    if (location.path === NULL_DEVICE) return;
    const { node, parent, name } = this.find(location);
    if (node?.kind === "directory") throw new FileSystemError("EISDIR", location.path);
    this.writing(location);
    const now = this.clock();
    if (node !== undefined) {
      node.content = options.append === true ? node.content + content : content;
      node.mtimeMs = now;
      return;
    }
    if (parent === undefined || name === undefined) throw new FileSystemError("ENOENT", location.path);
    parent.children.set(name, newFile(content, now, options.mode));
    parent.mtimeMs = now;
  }

  mkdir(path: string, options: PathOptions & { parents?: boolean; mode?: number } = {}): void {
    const segments = resolveSegments(path, options.cwd);
    if (options.parents !== true) {
      this.makeDirectory(segments, false, options.mode);
      return;
    }
    for (let length = 1; length <= segments.length; length += 1) this.makeDirectory(segments.slice(0, length), true, options.mode);
  }

  /** Names in a directory, sorted bytewise (the C locale's order, which is what containers usually run with). */
  readdir(path: string, options: PathOptions = {}): string[] {
    const location = this.locate(path, options);
    const { node } = this.find(location);
    if (node === undefined) throw new FileSystemError("ENOENT", location.path);
    if (node.kind !== "directory") throw new FileSystemError("ENOTDIR", location.path);
    return [...node.children.keys()].sort(compareBytewise);
  }

  /**
   * Unlinks a file, or with `recursive` a whole tree. Mount points inside the tree are emptied but
   * stay (EBUSY), as with `rm -rf` on a real node. Every entry is attempted; the first failure is thrown.
   */
  remove(path: string, options: PathOptions & { recursive?: boolean; force?: boolean } = {}): void {
    const failures: FileSystemError[] = [];
    this.removeTree(resolveSegments(path, options.cwd), options.recursive === true, options.force === true, failures);
    const [first] = failures;
    if (first !== undefined) throw first;
  }

  /** Updates the mtime, creating an empty file when there is none. */
  touch(path: string, options: PathOptions & { create?: boolean; mtimeMs?: number } = {}): void {
    const location = this.locate(path, options);
    if (location.path === NULL_DEVICE) return;
    const { node, parent, name } = this.find(location);
    if (node === undefined && options.create === false) return;
    this.writing(location);
    const mtimeMs = options.mtimeMs ?? this.clock();
    if (node !== undefined) {
      node.mtimeMs = mtimeMs;
      return;
    }
    if (parent === undefined || name === undefined) throw new FileSystemError("ENOENT", location.path);
    parent.children.set(name, newFile("", mtimeMs));
    parent.mtimeMs = this.clock();
  }

  /** What `tar -p` and `cp -p` restore. */
  setAttributes(path: string, attributes: { mtimeMs?: number; mode?: number }, options: PathOptions = {}): void {
    const location = this.locate(path, options);
    if (location.path === NULL_DEVICE) return;
    const { node } = this.find(location);
    if (node === undefined) throw new FileSystemError("ENOENT", location.path);
    this.writing(location);
    if (attributes.mtimeMs !== undefined) node.mtimeMs = attributes.mtimeMs;
    if (attributes.mode !== undefined) node.mode = attributes.mode;
  }

  private locate(path: string, options: PathOptions): Location {
    const segments = resolveSegments(path, options.cwd);
    if (path === "") throw new FileSystemError("ENOENT", "");
    const mount = this.mounted.find((candidate) => isPrefix(candidate.segments, segments));
    if (mount === undefined) throw new Error("the root mount always matches");
    return {
      path: formatSegments(segments),
      volume: mount.volume,
      readOnly: mount.readOnly,
      inVolume: [...mount.base, ...segments.slice(mount.segments.length)],
      isMountRoot: segments.length === mount.segments.length,
    };
  }

  private find(location: Location): Found {
    let directory = location.volume.root;
    const { inVolume } = location;
    for (const segment of inVolume.slice(0, -1)) {
      const child = directory.children.get(segment);
      if (child === undefined) throw new FileSystemError("ENOENT", location.path);
      if (child.kind !== "directory") throw new FileSystemError("ENOTDIR", location.path);
      directory = child;
    }
    const name = inVolume.at(-1);
    if (name === undefined) return { node: directory, parent: undefined, name: undefined };
    const node = directory.children.get(name);
    if (location.isMountRoot) return { node, parent: undefined, name: undefined };
    return { node, parent: directory, name };
  }

  private makeDirectory(segments: string[], existingIsFine: boolean, mode = DEFAULT_DIRECTORY_MODE): void {
    const location = this.locate(formatSegments(segments), {});
    const { node, parent, name } = this.find(location);
    if (node !== undefined) {
      if (existingIsFine && node.kind === "directory") return;
      throw new FileSystemError("EEXIST", location.path);
    }
    this.writing(location);
    if (parent === undefined || name === undefined) throw new FileSystemError("ENOENT", location.path);
    const now = this.clock();
    parent.children.set(name, newDirectory(now, mode));
    parent.mtimeMs = now;
  }

  private removeTree(segments: string[], recursive: boolean, force: boolean, failures: FileSystemError[]): void {
    const path = formatSegments(segments);
    let location: Location;
    let found: Found;
    try {
      location = this.locate(path, {});
      found = this.find(location);
    } catch (error) {
      if (!(error instanceof FileSystemError)) throw error;
      if (!(force && error.code === "ENOENT")) failures.push(error);
      return;
    }
    const { node, parent, name } = found;
    if (node === undefined) {
      if (!force) failures.push(new FileSystemError("ENOENT", path));
      return;
    }
    if (node.kind === "directory") {
      if (!recursive) {
        failures.push(new FileSystemError("EISDIR", path));
        return;
      }
      for (const child of [...node.children.keys()].sort(compareBytewise)) this.removeTree([...segments, child], true, force, failures);
    }
    if (location.isMountRoot) {
      failures.push(new FileSystemError("EBUSY", path));
      return;
    }
    if (location.readOnly) {
      failures.push(new FileSystemError("EROFS", path));
      return;
    }
    if (parent === undefined || name === undefined) return;
    if (node.kind === "directory" && node.children.size > 0) return; // a busy mount point below kept it
    location.volume.changed();
    parent.children.delete(name);
    parent.mtimeMs = this.clock();
  }

  /** Every write passes here: refused on a read-only mount, else the volume is told it changes (its saved JSON is made again). */
  private writing(location: Location): void {
    if (location.readOnly) throw new FileSystemError("EROFS", location.path);
    location.volume.changed();
  }

  /** Container runtimes create missing mount points, even on a read-only root. */
  private createMountPoint(segments: string[]): void {
    for (let length = 1; length <= segments.length; length += 1) {
      const prefix = segments.slice(0, length);
      const mount = this.mounted.find(
        (candidate) => candidate.segments.length < segments.length && isPrefix(candidate.segments, prefix),
      );
      if (mount === undefined) return;
      try {
        mount.volume.ensureDirectory([...mount.base, ...prefix.slice(mount.segments.length)].join("/"), this.clock());
      } catch {
        return; // a file where the mount point should be: the mount simply hides it
      }
    }
  }
}

function compareBytewise(a: string, b: string): number {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return Buffer.compare(left, right);
}
