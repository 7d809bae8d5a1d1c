export { ERRNO_TEXT, type Errno, FileSystemError, isFileSystemError } from "./file-system-error.ts";
export { IMAGE_BUILD_TIME_MS, IMAGE_COMMANDS, imageRepository, imageRootFor, isSandboxImage } from "./image-catalogue.ts";
export { baseName, dirName, resolvePath, resolveSegments } from "./paths.ts";
export {
  type FileKind,
  type FileStat,
  type PathOptions,
  PodFileSystem,
  type PodFileSystemOptions,
  type VolumeMount,
} from "./pod-file-system.ts";
export {
  type DirectoryNode,
  type FileNode,
  type FileSystemNode,
  VolumeData,
  type VolumeDataJson,
  type VolumeUsage,
  volumeDataJsonSchema,
} from "./volume-data.ts";
