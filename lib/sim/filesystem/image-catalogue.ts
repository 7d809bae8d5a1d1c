import { VolumeData } from "./volume-data.ts";

/**
 * Root file systems for the images the simulated kubelet runs. Real images are opaque to Berth;
 * what matters to it is that a container has the usual basics and that a sandbox image carries
 * a seeded /sandbox, because the workspace-init container copies exactly that into the workspace
 * volume and users check that it arrived.
 */

/** When the images were "built": fixed, so that seeded files look the same in every run. */
export const IMAGE_BUILD_TIME_MS = Date.UTC(2026, 0, 15, 9, 30, 0);

const EXECUTABLE_MODE = 0o755;

/** The commands the simulated shell implements, installed where a Debian-based image keeps them. */
export const IMAGE_COMMANDS = [
  "[", "basename", "bash", "cat", "chmod", "cp", "date", "dirname", "echo", "env", "false", "grep", "head", "hostname",
  "ls", "mkdir", "mv", "printf", "pwd", "rm", "sh", "sleep", "stat", "sync", "tail", "tar", "test", "touch", "true",
  "uname", "wc",
] as const;

const SANDBOX_IMAGE_MARKER = "openshell-community/sandboxes/";

/** Plain base images that people run as they are; everything else is treated as a sandbox image. */
const PLAIN_IMAGES = ["busybox", "alpine", "ubuntu", "debian", "registry.k8s.io/pause", "k8s.gcr.io/pause"];

export function isSandboxImage(image: string): boolean {
  if (image.includes(SANDBOX_IMAGE_MARKER)) return true;
  const repository = imageRepository(image);
  return !PLAIN_IMAGES.some((plain) => repository === plain || repository === `docker.io/library/${plain}` || repository === `library/${plain}`);
}

/** The repository part of a reference: no tag, no digest. */
export function imageRepository(image: string): string {
  const withoutDigest = image.split("@")[0] ?? image;
  const lastSlash = withoutDigest.lastIndexOf("/");
  const colon = withoutDigest.lastIndexOf(":");
  return colon > lastSlash ? withoutDigest.slice(0, colon) : withoutDigest;
}

function writeBasics(root: VolumeData, image: string): void {
  const at = IMAGE_BUILD_TIME_MS;
  for (const command of IMAGE_COMMANDS) root.writeText(`/bin/${command}`, "", at, EXECUTABLE_MODE);
  root.writeText("/usr/bin/env", "", at, EXECUTABLE_MODE);
  root.writeText("/etc/hostname", "localhost\n", at);
  root.writeText("/etc/hosts", "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n", at);
  root.writeText(
    "/etc/passwd",
    "root:x:0:0:root:/root:/bin/bash\nsandbox:x:1000:1000:sandbox:/sandbox:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
    at,
  );
  root.writeText("/etc/group", "root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n", at);
  root.writeText(
    "/etc/os-release",
    'PRETTY_NAME="Ubuntu 24.04 LTS (simulated)"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\n',
    at,
  );
  root.writeText("/etc/berth-sim-image", `${image}\n`, at);
  root.ensureDirectory("/tmp", at, 0o1777);
  root.ensureDirectory("/root", at, 0o700);
  root.ensureDirectory("/home", at);
  root.ensureDirectory("/var/tmp", at, 0o1777);
  root.ensureDirectory("/dev", at);
  root.ensureDirectory("/proc", at, 0o555);
  root.ensureDirectory("/mnt", at);
}

function writeSandboxHome(root: VolumeData, image: string): void {
  const at = IMAGE_BUILD_TIME_MS;
  root.writeText(
    "/sandbox/README.md",
    [
      "# Sandbox workspace",
      "",
      `Seeded from the image ${image}.`,
      "Files here live on the sandbox's workspace volume: with a PVC they survive pod",
      "replacement, with an emptyDir they start over at every pod start.",
      "",
    ].join("\n"),
    at,
  );
  root.writeText(
    "/sandbox/.bashrc",
    ['# ~/.bashrc for the sandbox user', 'export PS1="sandbox:\\w\\$ "', 'export PATH="$HOME/.local/bin:$PATH"', 'alias ll="ls -l"', ""].join("\n"),
    at,
  );
  root.writeText("/sandbox/.profile", '# ~/.profile\n[ -f "$HOME/.bashrc" ] && . "$HOME/.bashrc"\n', at);
  root.ensureDirectory("/sandbox/.config", at);
  root.ensureDirectory("/sandbox/.local/bin", at);
}

/** A fresh root for `image`; every pod gets its own (call again, or clone one). */
export function imageRootFor(image: string): VolumeData {
  const root = VolumeData.empty(IMAGE_BUILD_TIME_MS);
  writeBasics(root, image);
  if (isSandboxImage(image)) writeSandboxHome(root, image);
  return root;
}
