import { request } from "node:http";
import { Readable, Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { Exec, type KubeConfig, type V1Status } from "@kubernetes/client-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { imageRootFor } from "../filesystem/image-catalogue.ts";
import { PodFileSystem } from "../filesystem/pod-file-system.ts";
import { VolumeData } from "../filesystem/volume-data.ts";
import type { ExecOptions } from "./exec-request.ts";
import type { ExecRunner } from "./handle-exec-upgrade.ts";
import { execInShell } from "./shell-exec.ts";
import { startExecServer } from "./test-server.ts";

const IMAGE = "ghcr.io/nvidia/openshell-community/sandboxes/base:latest";

function collector() {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

interface ExecResult {
  status: V1Status;
  stdout: string;
  stderr: string;
}

/** client-node's own Exec, exactly as the product's driver uses it. */
async function clientExec(kubeConfig: KubeConfig, command: string[], options: { stdin?: string; tty?: boolean } = {}): Promise<ExecResult> {
  const stdout = collector();
  const stderr = collector();
  const stdin = options.stdin === undefined ? null : Readable.from([options.stdin]);
  const status = await new Promise<V1Status>((resolve, reject) => {
    new Exec(kubeConfig).exec("default", "my-box", "agent", command, stdout.stream, stderr.stream, stdin, options.tty ?? false, resolve).catch(reject);
  });
  await Promise.all([finished(stdout.stream), finished(stderr.stream)]);
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

let workspace: VolumeData;
let fs: PodFileSystem;
let server: Awaited<ReturnType<typeof startExecServer>>;
let seen: { options: ExecOptions; signal: AbortSignal }[];

const shellRunner: ExecRunner = (options, io) => {
  seen.push({ options, signal: io.signal });
  return execInShell(options, io, { fs, sleep: (ms, signal) => sleepUntilAborted(ms, signal), hostname: "my-box" });
};

/** Sleeps that never end on their own: a test that needs time to pass aborts instead. */
function sleepUntilAborted(_ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
}

beforeEach(async () => {
  workspace = VolumeData.empty(0);
  fs = new PodFileSystem({ root: imageRootFor(IMAGE), mounts: [{ mountPath: "/sandbox", volume: workspace }] });
  seen = [];
  server = await startExecServer(shellRunner);
});

afterEach(async () => {
  await server.close();
});

describe("exec through @kubernetes/client-node's Exec", () => {
  it("delivers stdout and stderr apart and reports success", async () => {
    const result = await clientExec(server.kubeConfig, ["sh", "-c", "echo out; echo err >&2"]);
    expect(result).toEqual({ status: { metadata: {}, status: "Success" }, stdout: "out\n", stderr: "err\n" });
    expect(seen[0]?.options).toEqual({ command: ["sh", "-c", "echo out; echo err >&2"], container: "agent", stdin: false, stdout: true, stderr: true, tty: false });
  });

  it("reports a non-zero exit as the kubelet's NonZeroExitCode Status with the ExitCode cause", async () => {
    const result = await clientExec(server.kubeConfig, ["sh", "-c", "echo partial; exit 3"]);
    expect(result.stdout).toBe("partial\n");
    expect(result.status).toEqual({
      metadata: {},
      status: "Failure",
      message: "command terminated with non-zero exit code: error executing command [sh -c echo partial; exit 3], exit code 3",
      reason: "NonZeroExitCode",
      details: { causes: [{ reason: "ExitCode", message: "3" }] },
    });
  });

  it("pipes stdin into cat and ends it with the v5 close signal", async () => {
    const result = await clientExec(server.kubeConfig, ["cat"], { stdin: "line one\nline two\n" });
    expect(result).toMatchObject({ status: { status: "Success" }, stdout: "line one\nline two\n" });
    expect((await clientExec(server.kubeConfig, ["sh", "-c", "cat > /sandbox/upload.txt && wc -l < /sandbox/upload.txt"], { stdin: "a\nb\nc\n" })).stdout).toBe("3\n");
    expect(workspace.readText("upload.txt")).toBe("a\nb\nc\n");
  });

  it("fails an unknown command in a shell with 127 and dash's message", async () => {
    const result = await clientExec(server.kubeConfig, ["sh", "-c", "no-such-tool --help"]);
    expect(result.stderr).toBe("sh: 1: no-such-tool: not found\n");
    expect(result.status).toMatchObject({ status: "Failure", reason: "NonZeroExitCode", details: { causes: [{ reason: "ExitCode", message: "127" }] } });
  });

  it("reports a program that does not exist as the runtime's InternalError", async () => {
    const result = await clientExec(server.kubeConfig, ["no-such-tool"]);
    expect(result.status).toMatchObject({ status: "Failure", reason: "InternalError", code: 500 });
    expect(result.status.message).toMatch(
      /^Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "no-such-tool": executable file not found in \$PATH: unknown$/,
    );
  });

  it("writes through to the pod's file system, so the next exec sees it", async () => {
    expect((await clientExec(server.kubeConfig, ["sh", "-c", "echo hi > /sandbox/a && sync"])).status.status).toBe("Success");
    expect((await clientExec(server.kubeConfig, ["cat", "/sandbox/a"])).stdout).toBe("hi\n");
    expect(workspace.readText("a")).toBe("hi\n");
  });

  it("merges stderr into stdout with terminal line endings when a TTY is asked for", async () => {
    const result = await clientExec(server.kubeConfig, ["sh", "-c", "echo out; echo err >&2"], { tty: true });
    expect(result.stdout).toBe("out\r\nerr\r\n");
    expect(result.stderr).toBe("");
    expect(seen[0]?.options).toMatchObject({ tty: true, stderr: false });
  });
});

/** A bare WebSocket client, to see the frames themselves. */
async function rawSession(
  url: string,
  protocols: string[],
  onOpen?: (ws: WebSocket) => void,
  onFrame?: (frame: { channel: number; text: string }, ws: WebSocket) => void,
) {
  const ws = new WebSocket(url, protocols);
  const frames: { channel: number; text: string }[] = [];
  ws.on("message", (data: Buffer) => {
    const frame = { channel: data[0] ?? -1, text: data.subarray(1).toString() };
    frames.push(frame);
    onFrame?.(frame, ws);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  onOpen?.(ws);
  const closeCode = await new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  return { protocol: ws.protocol, frames, closeCode };
}

const execPath = (command: string[], query = "stdout=true&stderr=true") =>
  `/api/v1/namespaces/default/pods/my-box/exec?${command.map((part) => `command=${encodeURIComponent(part)}`).join("&")}&${query}`;

describe("the channel protocol on the wire", () => {
  it("announces the streams, streams output, writes the Status on channel 3 and closes normally", async () => {
    const session = await rawSession(server.url(execPath(["sh", "-c", "printf x; exit 2"])), ["v5.channel.k8s.io", "v4.channel.k8s.io"]);
    expect(session.protocol).toBe("v5.channel.k8s.io");
    expect(session.frames).toEqual([
      { channel: 1, text: "" },
      { channel: 1, text: "x" },
      {
        channel: 3,
        text: '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c printf x; exit 2], exit code 2","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"2"}]}}',
      },
    ]);
    expect(session.closeCode).toBe(1000);
  });

  it("speaks v4 when the client prefers it, with the same JSON Status", async () => {
    const session = await rawSession(server.url(execPath(["true"])), ["v4.channel.k8s.io", "v5.channel.k8s.io"]);
    expect(session.protocol).toBe("v4.channel.k8s.io");
    expect(session.frames.at(-1)).toEqual({ channel: 3, text: '{"metadata":{},"status":"Success"}' });
  });

  it("writes only a failure's message, as text, on channel.k8s.io", async () => {
    const ok = await rawSession(server.url(execPath(["true"])), ["channel.k8s.io"]);
    expect(ok.frames).toEqual([{ channel: 1, text: "" }]);
    const failed = await rawSession(server.url(execPath(["false"])), ["channel.k8s.io"]);
    expect(failed.frames.at(-1)).toEqual({ channel: 3, text: "command terminated with non-zero exit code: error executing command [false], exit code 1" });
  });

  it("speaks the base64 variant in text frames", async () => {
    const ws = new WebSocket(server.url(execPath(["sh", "-c", "echo hi; exit 1"])), ["v4.base64.channel.k8s.io"]);
    const frames: string[] = [];
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      const text = data.toString();
      frames.push(`${isBinary ? "binary" : "text"}:${text[0] ?? ""}:${Buffer.from(text.slice(1), "base64").toString()}`);
    });
    await new Promise((resolve) => ws.once("close", resolve));
    expect(frames.slice(0, 2)).toEqual(["text:1:", "text:1:hi\n"]);
    expect(frames[2]).toMatch(/^text:3:\{"metadata":\{\},"status":"Failure",.*"reason":"NonZeroExitCode"/);
  });

  it("reads stdin frames until the v5 close signal for channel 0", async () => {
    const session = await rawSession(server.url(execPath(["wc", "-c"], "stdin=true&stdout=true")), ["v5.channel.k8s.io"], (ws) => {
      ws.send(Buffer.from([0, ...Buffer.from("héllo")]));
      ws.send(Buffer.from([255, 0]));
    });
    expect(session.frames.filter((frame) => frame.channel === 1).map((frame) => frame.text)).toEqual(["", "6\n"]);
  });

  it("aborts the command when the client goes away", async () => {
    const session = rawSession(server.url(execPath(["sh", "-c", "echo waiting; sleep 30; echo never"])), ["v5.channel.k8s.io"], undefined, (frame, ws) => {
      if (frame.text === "waiting\n") ws.terminate();
    });
    expect((await session).frames.map((frame) => frame.text)).toEqual(["", "waiting\n"]);
    await server.settled();
    expect(seen[0]?.signal.aborted).toBe(true);
  });
});

describe("requests refused before the upgrade", () => {
  function upgradeResponse(path: string, protocol: string): Promise<{ statusCode: number | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      const outgoing = request(server.url(path).replace("ws:", "http:"), {
        headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": protocol },
      });
      outgoing.on("response", (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ statusCode: response.statusCode, body }));
      });
      outgoing.on("error", reject);
      outgoing.end();
    });
  }

  it("answers 400 with a Status when no stream is asked for", async () => {
    const response = await upgradeResponse(execPath(["true"], "stdout=false"), "v5.channel.k8s.io");
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "you must specify at least 1 of stdin, stdout, stderr",
      reason: "BadRequest",
      code: 400,
    });
  });

  it("answers 403 to a client that offers no protocol it serves", async () => {
    expect((await upgradeResponse(execPath(["true"]), "v3.channel.k8s.io")).statusCode).toBe(403);
  });
});

describe("a malformed upgrade", () => {
  it("is refused by the WebSocket handshake without leaving the session hanging", async () => {
    const response = await new Promise<number | undefined>((resolve, reject) => {
      const outgoing = request(server.url(execPath(["true"])).replace("ws:", "http:"), {
        headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Protocol": "v5.channel.k8s.io" },
      });
      outgoing.on("response", (incoming) => resolve(incoming.statusCode));
      outgoing.on("error", reject);
      outgoing.end();
    });
    expect(response).toBe(400);
    await server.settled();
  });
});
