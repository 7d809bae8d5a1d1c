/** The errno values the simulated file systems can produce, with the text `strerror` gives them. */
export const ERRNO_TEXT = {
  ENOENT: "No such file or directory",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EROFS: "Read-only file system",
  EEXIST: "File exists",
  ENOTEMPTY: "Directory not empty",
  EBUSY: "Device or resource busy",
  EINVAL: "Invalid argument",
} as const;

export type Errno = keyof typeof ERRNO_TEXT;

/**
 * A failed file operation. `message` is the bare strerror text, so that callers can format it the
 * way the real tool would (`cat: x: No such file or directory`, `sh: 1: cannot create x: ...`).
 */
export class FileSystemError extends Error {
  readonly code: Errno;
  /** The absolute path the operation failed on. */
  readonly path: string;

  constructor(code: Errno, path: string) {
    super(ERRNO_TEXT[code]);
    this.name = "FileSystemError";
    this.code = code;
    this.path = path;
  }
}

export function isFileSystemError(error: unknown, code?: Errno): error is FileSystemError {
  return error instanceof FileSystemError && (code === undefined || error.code === code);
}
