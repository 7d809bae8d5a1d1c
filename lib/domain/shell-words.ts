// Text that Berth puts into a `sh -c` script it runs in a container: a mount path, a file name,
// JSON. Every such piece goes through shellWord, so that whatever a spec holds, the shell reads
// it as one word and runs none of it.

const SHELL_SAFE = /^[A-Za-z0-9_./-]+$/;

/** `text` as one word of a POSIX shell: as it is when it is plainly safe, else single-quoted. */
export function shellWord(text: string): string {
  return SHELL_SAFE.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
