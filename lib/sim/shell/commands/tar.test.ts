import { describe, expect, it } from "vitest";
import { sandboxContainer } from "../test-fixtures.ts";

describe("tar", () => {
  it("copies a tree through a pipe, keeping mtimes and modes", async () => {
    const { sh, fs, advance } = sandboxContainer();
    await sh("mkdir -p /sandbox/proj/src && echo code > /sandbox/proj/src/main.ts && printf '#!/bin/sh\\n' > /sandbox/proj/run.sh && chmod 755 /sandbox/proj/run.sh");
    const original = fs.stat("/sandbox/proj/src/main.ts").mtimeMs;
    advance(3_600_000);
    expect(await sh("mkdir /tmp/copy && tar -C /sandbox/proj -cf - . | tar -C /tmp/copy -xpf -")).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(fs.readFile("/tmp/copy/src/main.ts")).toBe("code\n");
    expect(fs.stat("/tmp/copy/src/main.ts").mtimeMs).toBe(original);
    expect(fs.stat("/tmp/copy/run.sh").mode).toBe(0o755);
  });

  it("writes archives to files, lists them and extracts them elsewhere", async () => {
    const { sh } = sandboxContainer();
    await sh("mkdir -p /sandbox/d && echo 1 > /sandbox/d/one");
    const result = await sh("cd /sandbox && tar cf /tmp/d.tar d && tar -tf /tmp/d.tar && mkdir /tmp/x && tar -xvf /tmp/d.tar -C /tmp/x && cat /tmp/x/d/one");
    expect(result).toEqual({ exitCode: 0, stdout: "d/\nd/one\nd/\nd/one\n1\n", stderr: "" });
  });

  it("strips a leading / from member names and says so", async () => {
    const { sh } = sandboxContainer();
    await sh("echo x > /sandbox/abs");
    expect(await sh("tar -cf /tmp/a.tar /sandbox/abs && tar -tf /tmp/a.tar")).toMatchObject({
      stdout: "sandbox/abs\n",
      stderr: "tar: Removing leading `/' from member names\n",
    });
  });

  it("fails like GNU tar on what is not an archive, a missing member or a missing directory", async () => {
    const { sh } = sandboxContainer();
    expect(await sh("echo garbage | tar -xf -")).toEqual({
      exitCode: 2,
      stdout: "",
      stderr: "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n",
    });
    expect(await sh("tar -cf /tmp/b.tar /sandbox/missing")).toMatchObject({
      exitCode: 2,
      stderr: "tar: /sandbox/missing: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n",
    });
    expect((await sh("tar -C /sandbox -cf - . | tar -C /nowhere -xf -")).stderr).toBe(
      "tar: /nowhere: Cannot chdir: No such file or directory\ntar: Error is not recoverable: exiting now\n",
    );
  });

  it("needs to be told what to do", async () => {
    const { run } = sandboxContainer();
    expect((await run(["tar", "-f", "x"])).exitCode).toBe(2);
  });
});
