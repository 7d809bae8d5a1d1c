import { describe, expect, it } from "vitest";
import { sandboxContainer, settle } from "./test-fixtures.ts";

// How a container's main process meets the kubelet's SIGTERM: PID 1 ignores it unless a shell
// trapped TERM, and a trap's action waits for the command in the foreground.

/** Runs `script` as a container's main process; `sigterm()` is the kubelet stopping it. */
function mainProcess(script: string) {
  const container = sandboxContainer();
  const terminate = new AbortController();
  const kill = new AbortController();
  const ended = container.sh(script, { terminate: terminate.signal, signal: kill.signal });
  let finished = false;
  void ended.then(() => (finished = true));
  return {
    ...container,
    ended,
    finished: () => finished,
    sigterm: () => terminate.abort(),
    sigkill: () => kill.abort(),
  };
}

describe("SIGTERM to a container's main process", () => {
  it("ends a shell that trapped TERM and waits for a job, with the trap's status", async () => {
    const container = mainProcess("trap 'echo stopping; exit 0' TERM; sleep infinity & wait");
    await settle();
    container.sigterm();
    expect(await container.ended).toMatchObject({ exitCode: 0, stdout: "stopping\n" });
  });

  it("is ignored by a shell without a trap, which runs until it is killed", async () => {
    const container = mainProcess("while true; do sleep 1; done");
    await settle();
    container.sigterm();
    container.advance(5_000);
    await settle();
    expect(container.finished()).toBe(false);
    container.sigkill();
    expect((await container.ended).exitCode).toBe(137);
  });

  it("runs the trap's action only once the foreground command has finished", async () => {
    const container = mainProcess("trap 'echo bye; exit 3' TERM; sleep 10; echo after");
    await settle();
    container.sigterm();
    await settle();
    const beforeSleepEnded = container.finished();
    container.advance(10_000);
    expect([beforeSleepEnded, await container.ended]).toMatchObject([false, { exitCode: 3, stdout: "bye\n" }]);
  });

  it("stops a polling loop at its next command", async () => {
    const container = mainProcess("trap 'exit 0' TERM; while true; do sleep 1; done");
    await settle();
    container.sigterm();
    container.advance(1_000);
    expect((await container.ended).exitCode).toBe(0);
  });

  it("is not delivered to a shell the main process started", async () => {
    const container = mainProcess(`sh -c "trap 'echo inner' TERM; sleep 5"; echo outer done`);
    await settle();
    container.sigterm();
    container.advance(5_000);
    expect((await container.ended).stdout).toBe("outer done\n");
  });

  it("is ignored when the trap's action is empty", async () => {
    const container = mainProcess("trap '' TERM; sleep 2; echo still here");
    await settle();
    container.sigterm();
    container.advance(2_000);
    expect((await container.ended).stdout).toBe("still here\n");
  });
});

describe("trap", () => {
  it("runs the EXIT action when the script ends, keeping the script's status", async () => {
    const { sh } = sandboxContainer({ instantSleep: true });
    expect(await sh("trap 'echo cleanup' EXIT; echo work; exit 4")).toMatchObject({ exitCode: 4, stdout: "work\ncleanup\n" });
  });

  it("lists the actions set, and forgets one reset with -", async () => {
    const { sh } = sandboxContainer({ instantSleep: true });
    expect((await sh("trap 'exit 0' TERM INT; trap - INT; trap")).stdout).toBe("trap -- 'exit 0' TERM\n");
  });

  it("takes signal numbers and SIG names", async () => {
    const { sh } = sandboxContainer({ instantSleep: true });
    expect((await sh("trap 'echo a' 15; trap 'echo b' SIGHUP; trap -p")).stdout).toBe("trap -- 'echo a' TERM\ntrap -- 'echo b' HUP\n");
  });

  it("refuses a signal it does not know, the dialect's way", async () => {
    const { run } = sandboxContainer({ instantSleep: true });
    expect(await run(["sh", "-c", "trap 'exit' USR9"])).toMatchObject({ exitCode: 1, stderr: "sh: 1: trap: USR9: bad trap\n" });
    expect((await run(["bash", "-c", "trap 'exit' USR9"])).stderr).toBe("bash: line 1: trap: USR9: invalid signal specification\n");
  });
});

describe("jobs", () => {
  it("run beside the script, and wait returns the job's status", async () => {
    const { sh } = sandboxContainer({ instantSleep: true });
    expect((await sh("(sleep 1; exit 5) & pid=$!; echo started; wait $pid; echo status $?")).stdout).toBe("started\nstatus 5\n");
  });

  it("wait without operands waits for every job and returns 0", async () => {
    const { sh } = sandboxContainer({ instantSleep: true });
    expect((await sh("echo a > /sandbox/a & echo b > /sandbox/b & wait; echo $?; cat /sandbox/a /sandbox/b")).stdout).toBe("0\na\nb\n");
  });

  it("wait for a process id that is not a job returns 127", async () => {
    const { sh } = sandboxContainer({ instantSleep: true });
    expect((await sh("wait 4242; echo $?")).stdout).toBe("127\n");
  });

  it("end with the process that started them", async () => {
    const container = sandboxContainer();
    await container.sh("(sleep 5; echo late > /sandbox/late) &");
    container.advance(5_000);
    await settle();
    expect(container.fs.exists("/sandbox/late")).toBe(false);
  });
});
