import { describe, expect, it } from "vitest";
import { CLOCK_START_MS, sandboxContainer } from "../test-fixtures.ts";

describe("echo and printf", () => {
  it("echo: -n drops the newline, -e interprets escapes", async () => {
    const { run } = sandboxContainer();
    expect((await run(["echo", "-n", "a", "b"])).stdout).toBe("a b");
    expect((await run(["echo", "-e", "x\\ty\\n"])).stdout).toBe("x\ty\n\n");
    expect((await run(["echo", "x\\ty"])).stdout).toBe("x\\ty\n");
    expect((await run(["echo", "-e", "stop\\chere"])).stdout).toBe("stop");
  });

  it("printf: %s, %d, padding, escapes, and the format reused for extra arguments", async () => {
    const { run } = sandboxContainer();
    expect((await run(["printf", "%s=%d\\n", "a", "1", "b", "2"])).stdout).toBe("a=1\nb=2\n");
    expect((await run(["printf", "[%5s|%-3s|%03d|%x|%.2f|%%]\\n", "ab", "c", "7", "255", "3.14159"])).stdout).toBe("[   ab|c  |007|ff|3.14|%]\n");
    expect(await run(["printf", "%d\\n", "abc"])).toEqual({ exitCode: 1, stdout: "0\n", stderr: "printf: abc: expected numeric value\n" });
  });

  it("reports a builtin's errors with the shell's prefix inside a shell", async () => {
    const { sh } = sandboxContainer();
    expect((await sh("printf '%d' x")).stderr).toBe("sh: 1: printf: x: expected numeric value\n");
    expect(await sh("[ 1 = 1")).toMatchObject({ exitCode: 2, stderr: "sh: 1: [: missing ]\n" });
  });
});

describe("test and [", () => {
  it.each([
    ["-f /sandbox/file", 0],
    ["-f /sandbox/dir", 1],
    ["-d /sandbox/dir", 0],
    ["-e /sandbox/missing", 1],
    ["-s /sandbox/empty", 1],
    ["-s /sandbox/file", 0],
    ["-z ''", 0],
    ["-n ''", 1],
    ["abc = abc", 0],
    ["abc != abc", 1],
    ["! -e /sandbox/missing", 0],
    ["3 -lt 10", 0],
    ["-f /sandbox/file -a -d /sandbox/dir", 0],
    ["-f /sandbox/missing -o -d /sandbox/dir", 0],
    ["\\( -f /sandbox/file \\) -a ! -d /sandbox/file", 0],
    ["''", 1],
    ["-w /etc/app/settings.json", 1],
  ])("[ %s ] → %i", async (expression, status) => {
    const { sh } = sandboxContainer();
    await sh("mkdir /sandbox/dir; echo x > /sandbox/file; touch /sandbox/empty");
    expect((await sh(`[ ${expression} ]`)).exitCode).toBe(status);
    expect((await sh(`test ${expression}`)).exitCode).toBe(status);
  });

  it("exits 2 on a bad expression", async () => {
    const { sh } = sandboxContainer();
    expect(await sh("[ a -eq 1 ]")).toMatchObject({ exitCode: 2, stderr: "sh: 1: [: Illegal number: a\n" });
  });
});

describe("file commands", () => {
  it("cat: concatenates files and stdin, and names what it cannot read", async () => {
    const { sh } = sandboxContainer();
    await sh("echo a > /sandbox/a; echo b > /sandbox/b");
    expect(await sh("echo mid | cat /sandbox/a - /sandbox/b")).toMatchObject({ stdout: "a\nmid\nb\n" });
    expect(await sh("cat /sandbox/a /sandbox/missing /sandbox")).toEqual({
      exitCode: 1,
      stdout: "a\n",
      stderr: "cat: /sandbox/missing: No such file or directory\ncat: /sandbox: Is a directory\n",
    });
  });

  it("mkdir: -p makes parents and tolerates existing directories", async () => {
    const { sh, workspace } = sandboxContainer();
    expect(await sh("mkdir /sandbox/a/b")).toMatchObject({ exitCode: 1, stderr: "mkdir: cannot create directory '/sandbox/a/b': No such file or directory\n" });
    expect((await sh("mkdir -p /sandbox/a/b && mkdir -p /sandbox/a/b")).exitCode).toBe(0);
    expect(workspace.list("a")).toEqual(["b"]);
    expect((await sh("mkdir /sandbox/a")).stderr).toBe("mkdir: cannot create directory '/sandbox/a': File exists\n");
  });

  it("rm: -r for directories, -f for missing files, and no way to remove . or /", async () => {
    const { sh, workspace } = sandboxContainer();
    await sh("mkdir -p /sandbox/d/e && touch /sandbox/d/e/f /sandbox/g");
    expect((await sh("rm /sandbox/d")).stderr).toBe("rm: cannot remove '/sandbox/d': Is a directory\n");
    expect((await sh("rm -rf /sandbox/d /sandbox/missing && rm /sandbox/g")).exitCode).toBe(0);
    expect(workspace.list("/")).toEqual([]);
    expect((await sh("rm /sandbox/g")).stderr).toBe("rm: cannot remove '/sandbox/g': No such file or directory\n");
    expect((await sh("rm -rf .")).stderr).toBe("rm: refusing to remove '.' or '..' directory: skipping '.'\n");
    expect((await sh("rm -rf /")).exitCode).toBe(1);
    expect((await sh("rm -rf /sandbox")).stderr).toBe("rm: cannot remove '/sandbox': Device or resource busy\n");
  });

  it("touch: creates empty files and moves mtimes to the simulated now", async () => {
    const { sh, fs, advance, now } = sandboxContainer();
    await sh("echo keep > /sandbox/f");
    advance(60_000);
    expect((await sh("touch /sandbox/f /sandbox/new")).exitCode).toBe(0);
    expect(fs.readFile("/sandbox/f")).toBe("keep\n");
    expect(fs.stat("/sandbox/f").mtimeMs).toBe(now());
    expect((await sh("touch /sandbox/no/where")).stderr).toBe("touch: cannot touch '/sandbox/no/where': No such file or directory\n");
  });

  it("cp and mv: files, trees into directories, and the refusals", async () => {
    const { sh, workspace } = sandboxContainer();
    await sh("mkdir -p /sandbox/src/sub && echo 1 > /sandbox/src/sub/one && echo top > /sandbox/top");
    expect((await sh("cp /sandbox/src /sandbox/copy")).stderr).toBe("cp: -r not specified; omitting directory '/sandbox/src'\n");
    expect((await sh("cp -r /sandbox/src /sandbox/copy && cp /sandbox/top /sandbox/copy/ && mv /sandbox/copy /tmp/moved")).exitCode).toBe(0);
    expect(workspace.list("/")).toEqual(["src", "top"]);
    expect((await sh("cat /tmp/moved/sub/one /tmp/moved/top")).stdout).toBe("1\ntop\n");
    expect((await sh("cp /sandbox/nope /tmp")).stderr).toBe("cp: cannot stat '/sandbox/nope': No such file or directory\n");
  });

  it("ls: one name per line, -a with dot entries, -l in long form", async () => {
    const { sh } = sandboxContainer();
    await sh("mkdir /sandbox/dir && printf 'hello' > /sandbox/file.txt && touch /sandbox/.hidden");
    expect((await sh("ls /sandbox")).stdout).toBe("dir\nfile.txt\n");
    expect((await sh("ls -a /sandbox")).stdout).toBe(".\n..\n.hidden\ndir\nfile.txt\n");
    expect((await sh("cd /sandbox && ls -1 -A")).stdout).toBe(".hidden\ndir\nfile.txt\n");
    expect((await sh("ls -l /sandbox")).stdout).toBe(
      "total 8\ndrwxr-xr-x 1 root root 4096 Nov 30 12:00 dir\n-rw-r--r-- 1 root root    5 Nov 30 12:00 file.txt\n",
    );
    expect((await sh("ls /sandbox/file.txt /nope")).stderr).toBe("ls: cannot access '/nope': No such file or directory\n");
  });

  it("stat -c: size, mtime, raw mode and type of each operand, as GNU stat prints them", async () => {
    const { sh } = sandboxContainer();
    await sh("mkdir /sandbox/dir && printf 'hello' > /sandbox/file.txt && touch /sandbox/empty");
    expect((await sh("cd /sandbox && stat -c '%s %Y %f %a %F|%n' -- dir file.txt empty")).stdout).toBe(
      `4096 ${Math.floor(CLOCK_START_MS / 1000)} 41ed 755 directory|dir\n5 ${Math.floor(CLOCK_START_MS / 1000)} 81a4 644 regular file|file.txt\n0 ${Math.floor(CLOCK_START_MS / 1000)} 81a4 644 regular empty file|empty\n`,
    );
  });

  it("stat: a missing operand fails that one and goes on", async () => {
    const { sh } = sandboxContainer();
    await sh("touch /sandbox/here");
    expect(await sh("stat --format=%n /sandbox/nope /sandbox/here")).toEqual({ exitCode: 1, stdout: "/sandbox/here\n", stderr: "stat: cannot statx '/sandbox/nope': No such file or directory\n" });
  });
});

describe("text commands", () => {
  it("wc counts lines, words and bytes", async () => {
    const { sh } = sandboxContainer();
    await sh("printf 'one two\\nthree\\n' > /sandbox/t");
    expect((await sh("wc -l < /sandbox/t; wc -c /sandbox/t; cat /sandbox/t | wc")).stdout).toBe("2\n14 /sandbox/t\n      2       3      14\n");
  });

  it("head and tail take -n", async () => {
    const { sh } = sandboxContainer();
    await sh("printf '1\\n2\\n3\\n4\\n' > /sandbox/n");
    expect((await sh("head -n 2 /sandbox/n; tail -n 1 /sandbox/n; tail -n +3 /sandbox/n; head -1 /sandbox/n")).stdout).toBe("1\n2\n4\n3\n4\n1\n");
  });

  it("grep matches lines, quietly with -q", async () => {
    const { sh } = sandboxContainer();
    await sh("printf 'alpha\\nbeta\\nalphabet\\n' > /sandbox/w");
    expect(await sh("grep -n alpha /sandbox/w; grep -c beta /sandbox/w; grep -q zeta /sandbox/w; echo $?")).toMatchObject({
      stdout: "1:alpha\n3:alphabet\n1\n1\n",
    });
  });
});

describe("system commands", () => {
  it("date prints the simulated clock, in UTC, optionally formatted", async () => {
    const { sh } = sandboxContainer();
    expect(new Date(CLOCK_START_MS).toISOString()).toBe("2026-11-30T12:00:00.000Z");
    expect((await sh("date; date -u +%Y-%m-%dT%H:%M:%S; date +%s")).stdout).toBe("Mon Nov 30 12:00:00 UTC 2026\n2026-11-30T12:00:00\n1796040000\n");
  });

  it("env prints the environment and runs commands with additions", async () => {
    const { run } = sandboxContainer();
    expect((await run(["env"], { env: { ONLY: "1" } })).stdout).toContain("ONLY=1\n");
    // dash exports PWD itself, as the real one does.
    expect((await run(["env", "-i", "A=b", "sh", "-c", "echo $A; env"])).stdout).toBe("b\nA=b\nPWD=/\n");
    expect(await run(["env", "nope"])).toMatchObject({ exitCode: 127, stderr: "env: 'nope': No such file or directory\n" });
  });

  it("cd and pwd move through the file system; cd to nowhere fails like dash", async () => {
    const { sh } = sandboxContainer();
    expect((await sh("cd /sandbox && pwd && cd .. && pwd && cd - && cd")).stdout).toBe("/sandbox\n/\n/sandbox\n");
    expect(await sh("cd /nope")).toEqual({ exitCode: 2, stdout: "", stderr: "sh: 1: cd: can't cd to /nope\n" });
  });

  it("sync, true and false do what their names say", async () => {
    const { sh } = sandboxContainer();
    expect((await sh("sync && true && false")).exitCode).toBe(1);
  });

  it("sleep rejects what is not a duration", async () => {
    const { run } = sandboxContainer();
    expect(await run(["sleep", "soon"])).toEqual({ exitCode: 1, stdout: "", stderr: "sleep: invalid time interval 'soon'\nTry 'sleep --help' for more information.\n" });
  });
});
