import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { contentDisposition, displayName, listCommand, MAX_DOWNLOAD_BYTES, parseListing, readCommand, READER_EXIT, volumeFileQuerySchema, volumeFilesQuerySchema } from "./volume-files.ts";

// What a person may ask for inside a claim, and what Berth makes of a pod's answer. The scripts
// run here in this machine's own /bin/sh with its stat, over a directory holding what volumes
// hold: names with newlines and bytes that are not UTF-8, links out of the volume.

const record = (mode: string, size: number, mtime: number, name: Uint8Array | string) =>
  Buffer.concat([Buffer.from(`${mode} ${size} ${mtime}\n`), typeof name === "string" ? Buffer.from(name) : Buffer.from(name), Buffer.from([0])]);

describe("the path of a file in a claim", () => {
  it.each(["/", "/notes", "/notes/todo.md", "/a//b/"])("takes %s", (input) => {
    expect(volumeFilesQuerySchema.safeParse({ path: input }).success).toBe(true);
  });

  it.each([
    ["notes", "path must start with /"],
    ["/a/../etc", "path must not contain . or .. segments"],
    ["/./a", "path must not contain . or .. segments"],
    ["/a\0b", "path must not contain a NUL character"],
    [`/${"é".repeat(128)}`, "each name in path must be at most 255 bytes"],
  ])("refuses %j, saying why", (input, message) => {
    const parsed = volumeFilesQuerySchema.safeParse({ path: input });
    expect(parsed.error?.issues.map((issue) => issue.message)).toContainEqual(expect.stringContaining(message));
  });

  it("is the root when not given", () => {
    expect(volumeFilesQuerySchema.parse({}).path).toBe("/");
  });

  it("names a file for a download, not the root", () => {
    expect(volumeFileQuerySchema.safeParse({ path: "/" }).error?.issues[0]?.message).toBe("path must name a file, e.g. /notes/todo.md");
  });

  it("reaches the pod as separate arguments, never inside the script", () => {
    expect(listCommand("/sandbox", "/a b/$(rm -rf x)").slice(3)).toEqual(["berth-list", "/sandbox", "a b", "$(rm -rf x)"]);
  });
});

describe("a names's safe form", () => {
  it.each([
    ["plain.txt", "plain.txt"],
    ["two\nlines", "two\\nlines"],
    ["evil\u202etxt.exe", "evil\\u{202e}txt.exe"],
    ["back\\slash", "back\\\\slash"],
    ["zero\u200bwidth", "zero\\u{200b}width"],
    ["日本語", "日本語"],
  ])("of %j is %j", (name, shown) => {
    expect(displayName(Buffer.from(name))).toBe(shown);
  });

  it("writes bytes that are not UTF-8 as \\x escapes", () => {
    expect(displayName(Buffer.from([0x61, 0xff, 0xfe, 0x62]))).toBe("a\\xff\\xfeb");
  });
});

describe("a listing read back", () => {
  it("has directories first, then files by name, with size and time", () => {
    const output = Buffer.concat([record("81a4", 5, 1_700_000_000, "b.txt"), record("41ed", 4096, 1_700_000_100, "zdir"), record("81a4", 0, 1_700_000_000, "a.txt")]);
    expect(parseListing(output, "/notes").entries.map((entry) => [entry.path, entry.kind, entry.sizeBytes])).toEqual([
      ["/notes/zdir", "directory", 4096],
      ["/notes/a.txt", "file", 0],
      ["/notes/b.txt", "file", 5],
    ]);
  });

  it("keeps a name that is not UTF-8 shown but not asked for by path", () => {
    const [entry] = parseListing(record("81a4", 1, 0, new Uint8Array([0x6f, 0xff])), "/").entries;
    expect([entry!.displayName, entry!.path]).toEqual(["o\\xff", null]);
  });

  it("says when the directory held more than it lists", () => {
    expect(parseListing(Buffer.concat([record("81a4", 1, 0, "a"), Buffer.from("more\n\0")]), "/").truncated).toBe(true);
  });

  it("refuses an answer cut part-way", () => {
    expect(() => parseListing(Buffer.from("81a4 1 0\nhalf"), "/")).toThrow("ended part-way through an entry");
  });

  it("refuses a header no stat wrote", () => {
    expect(() => parseListing(record("<script>", 1, 0, "a"), "/")).toThrow("has an entry Berth cannot read");
  });
});

describe("the scripts, in this machine's sh", () => {
  const root = mkdtempSync(path.join(tmpdir(), "berth-volume-files-"));
  const outside = mkdtempSync(path.join(tmpdir(), "berth-outside-"));
  mkdirSync(path.join(root, "notes"));
  writeFileSync(path.join(root, "notes", "todo.md"), "write tests\n");
  writeFileSync(path.join(root, "two\nlines"), "x");
  // A name in Latin-1, as old tools wrote them: not UTF-8.
  writeFileSync(Buffer.concat([Buffer.from(`${root}/latin`), Buffer.from([0xe9])]), "");
  writeFileSync(path.join(root, ".hidden"), "h");
  writeFileSync(path.join(outside, "secret"), "do not read");
  symlinkSync(outside, path.join(root, "escape"));
  utimesSync(path.join(root, "notes", "todo.md"), 1_700_000_000, 1_700_000_000);
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const run = (argv: string[]) => {
    const result = spawnSync(argv[0]!, argv.slice(1), { encoding: "buffer" });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString() };
  };

  it("lists every entry, hidden ones and odd names included", () => {
    const { stdout } = run(listCommand(root, "/"));
    expect(parseListing(stdout, "/").entries.map((entry) => [entry.displayName, entry.kind])).toEqual([
      ["notes", "directory"],
      [".hidden", "file"],
      ["escape", "symlink"],
      ["latin\\xe9", "file"],
      ["two\\nlines", "file"],
    ]);
  });

  it("gives a file's size and modification time", () => {
    const [todo] = parseListing(run(listCommand(root, "/notes")).stdout, "/notes").entries;
    expect([todo!.sizeBytes, todo!.modifiedAt]).toEqual([12, "2023-11-14T22:13:20.000Z"]);
  });

  it.each([
    ["a symbolic link", "/escape", READER_EXIT.symlink],
    ["a missing directory", "/gone", READER_EXIT.missing],
    ["a file", "/notes/todo.md", READER_EXIT.wrongKind],
  ])("refuses to list through %s", (_what, at, status) => {
    expect(run(listCommand(root, at)).status).toBe(status);
  });

  it("reads a file whole", () => {
    expect(run(readCommand(root, "/notes/todo.md")).stdout.toString()).toBe("write tests\n");
  });

  it("does not read through a link out of the volume", () => {
    expect(run(readCommand(root, "/escape/secret"))).toMatchObject({ status: READER_EXIT.symlink, stdout: Buffer.alloc(0) });
  });

  it("does not read a file over the limit, and says its size", () => {
    writeFileSync(path.join(root, "big.bin"), Buffer.alloc(MAX_DOWNLOAD_BYTES + 1));
    expect(run(readCommand(root, "/big.bin"))).toMatchObject({ status: READER_EXIT.tooLarge, stderr: `${MAX_DOWNLOAD_BYTES + 1}\n` });
  });
});

describe("a download's file name", () => {
  it("is the base name, plain for old browsers and exact for new ones", () => {
    expect(contentDisposition('/reports/q3 "final";.pdf')).toBe(`attachment; filename="q3 _final__.pdf"; filename*=UTF-8''q3%20%22final%22%3B.pdf`);
  });
});
