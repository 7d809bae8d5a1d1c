import { describe, expect, it } from "vitest";
import { sandboxContainer, settle } from "./test-fixtures.ts";

describe("runCommand: how argv is started", () => {
  it("runs `sh -c`, `bash -c` and `/bin/sh -c` scripts", async () => {
    const { run } = sandboxContainer();
    expect(await run(["sh", "-c", "echo one"])).toEqual({ exitCode: 0, stdout: "one\n", stderr: "" });
    expect((await run(["bash", "-c", "echo two"])).stdout).toBe("two\n");
    expect((await run(["/bin/sh", "-c", "echo $0"])).stdout).toBe("/bin/sh\n");
    expect((await run(["sh", "-c", 'echo "$0:$1:$#"', "name", "first"])).stdout).toBe("name:first:1\n");
  });

  it("runs any other argv as that one program, without a shell", async () => {
    const { run, fs } = sandboxContainer();
    fs.writeFile("/sandbox/x", "file content\n");
    expect(await run(["cat", "/sandbox/x"])).toEqual({ exitCode: 0, stdout: "file content\n", stderr: "" });
    expect(await run(["echo", "$HOME", "a;b"])).toMatchObject({ stdout: "$HOME a;b\n" });
    expect(await run(["/bin/ls", "/sandbox"])).toMatchObject({ stdout: "x\n" });
  });

  it("reports a program that does not exist as a start failure, the way the runtime does", async () => {
    const { run } = sandboxContainer();
    expect(await run(["claude-code"])).toEqual({
      exitCode: 127,
      stdout: "",
      stderr: "",
      startFailure: { reason: "ExecutableNotFound", message: 'exec: "claude-code": executable file not found in $PATH' },
    });
    expect((await run(["/opt/tool"])).startFailure?.message).toBe('exec: "/opt/tool": stat /opt/tool: no such file or directory');
  });

  it("runs executable scripts by their #! line and refuses files without the execute bit", async () => {
    const { run, sh } = sandboxContainer();
    await sh("printf '#!/bin/sh\\necho from script $1\\n' > /sandbox/hook.sh");
    expect((await run(["/sandbox/hook.sh", "arg"])).startFailure?.reason).toBe("PermissionDenied");
    expect(await sh("/sandbox/hook.sh; echo $?")).toMatchObject({ stdout: "126\n", stderr: "sh: 1: /sandbox/hook.sh: Permission denied\n" });
    await sh("chmod +x /sandbox/hook.sh");
    expect(await run(["/sandbox/hook.sh", "arg"])).toMatchObject({ exitCode: 0, stdout: "from script arg\n" });
  });

  it("fails an unknown command inside a shell like dash, with the line number", async () => {
    const { sh, run } = sandboxContainer();
    expect(await sh("foo")).toEqual({ exitCode: 127, stdout: "", stderr: "sh: 1: foo: not found\n" });
    expect(await sh("true\nfoo --version")).toMatchObject({ exitCode: 127, stderr: "sh: 2: foo: not found\n" });
    expect(await run(["bash", "-c", "foo"])).toMatchObject({ exitCode: 127, stderr: "bash: line 1: foo: command not found\n" });
  });

  it("gives the environment, working directory and hostname it is told", async () => {
    const { run } = sandboxContainer();
    const result = await run(["sh", "-c", "pwd; echo $GREETING; hostname; echo $HOSTNAME"], { env: { GREETING: "hello" }, cwd: "/sandbox" });
    expect(result.stdout).toBe("/sandbox\nhello\nmy-box\nmy-box\n");
  });
});

describe("runCommand: time, stdin and aborts", () => {
  it("sleeps on the injected clock, never on its own timers", async () => {
    const { sh, sleeps } = sandboxContainer({ instantSleep: true });
    expect((await sh("sleep 2; sleep 0.5; sleep 1m")).exitCode).toBe(0);
    expect(sleeps).toEqual([2000, 500, 60_000]);
  });

  it("waits for the clock to reach the end of a sleep", async () => {
    const { sh, advance } = sandboxContainer();
    let done = false;
    const running = sh("sleep 5 && echo woke").then((result) => {
      done = true;
      return result;
    });
    await settle();
    advance(4_000);
    await settle();
    expect(done).toBe(false);
    advance(1_000);
    expect((await running).stdout).toBe("woke\n");
  });

  it("stops a sleeping script when aborted, keeping what it wrote so far", async () => {
    const { sh, pendingSleeps } = sandboxContainer();
    const controller = new AbortController();
    const running = sh("echo started; sleep 30; echo never", { signal: controller.signal });
    await settle();
    expect(pendingSleeps()).toBe(1);
    controller.abort();
    expect(await running).toEqual({ exitCode: 137, stdout: "started\n", stderr: "", killed: true });
  });

  it("keeps `sleep infinity` going until it is aborted", async () => {
    const { run } = sandboxContainer();
    const controller = new AbortController();
    const running = run(["sleep", "infinity"], { signal: controller.signal });
    await settle();
    controller.abort();
    expect((await running).exitCode).toBe(137);
  });

  it("pipes stdin text to the program", async () => {
    const { run } = sandboxContainer();
    expect((await run(["cat"], { stdin: "piped in\n" })).stdout).toBe("piped in\n");
    expect((await run(["sh", "-c", "wc -l"], { stdin: "a\nb\n" })).stdout).toBe("2\n");
  });

  it("reads streamed stdin only when a command asks for it", async () => {
    const { run } = sandboxContainer();
    async function* neverEnding(): AsyncIterable<string> {
      yield "first\n";
      await new Promise(() => {});
    }
    expect((await run(["sh", "-c", "echo no stdin needed"], { stdin: neverEnding() })).stdout).toBe("no stdin needed\n");
    async function* chunks(): AsyncIterable<string> {
      yield "a";
      yield "b\n";
    }
    expect((await run(["cat"], { stdin: chunks() })).stdout).toBe("ab\n");
  });

  it("streams output as it is written", async () => {
    const { sh, advance } = sandboxContainer();
    const seen: string[] = [];
    const running = sh("echo before; echo oops >&2; sleep 1; echo after", { onStdout: (text) => seen.push(`out:${text}`), onStderr: (text) => seen.push(`err:${text}`) });
    await settle();
    expect(seen).toEqual(["out:before\n", "err:oops\n"]);
    advance(1_000);
    await running;
    expect(seen).toEqual(["out:before\n", "err:oops\n", "out:after\n"]);
  });
});

describe("runCommand: runaway scripts", () => {
  it("can abort a loop that never sleeps", async () => {
    const { sh } = sandboxContainer();
    const controller = new AbortController();
    const running = sh("while :; do :; done", { signal: controller.signal });
    await settle();
    controller.abort();
    expect((await running).exitCode).toBe(137);
  });

  it("stops a writer that never ends once its pipe is full, as SIGPIPE would", async () => {
    const { sh } = sandboxContainer();
    const result = await sh("while :; do echo 0123456789012345678901234567890123456789012345678901234567890123; done | head -n 1; echo done");
    expect(result).toEqual({ exitCode: 0, stdout: "0123456789012345678901234567890123456789012345678901234567890123\ndone\n", stderr: "" });
  }, 60_000);

  it("keeps at most captureLimit characters of output but streams all of it", async () => {
    const { sh } = sandboxContainer();
    let streamed = "";
    const result = await sh("echo 0123456789", { captureLimit: 4, onStdout: (text) => (streamed += text) });
    expect(result.stdout).toBe("0123");
    expect(streamed).toBe("0123456789\n");
  });
});
