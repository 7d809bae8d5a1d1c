import { type Errno, isFileSystemError } from "../filesystem/file-system-error.ts";
import type { Redirect } from "./ast.ts";
import { type ExpansionHost, expandText } from "./expand.ts";
import { DISCARD, type OutputSink, type Streams, textInput } from "./streams.ts";

/** A redirection the shell could not set up; the message is the dialect's own wording. */
export class RedirectionError extends Error {}

type Action = "create" | "open";

/**
 * dash words file errors by what it was doing (its errmsg()): a missing directory is
 * "Directory nonexistent" when creating and "No such file" when opening; bash uses strerror.
 */
function redirectionMessage(host: ExpansionHost, path: string, action: Action, code: Errno, reason: string): string {
  if (host.state.dialect === "bash") return `${path}: ${reason}`;
  const missing = code === "ENOENT" || code === "ENOTDIR";
  const text = missing ? (action === "open" ? "No such file" : "Directory nonexistent") : reason;
  return `cannot ${action} ${path}: ${text}`;
}

function fileSink(host: ExpansionHost, path: string, append: boolean): OutputSink {
  const { fs } = host.state.services;
  const cwd = host.state.cwd;
  try {
    fs.writeFile(path, "", { cwd, append });
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new RedirectionError(redirectionMessage(host, path, "create", error.code, error.message));
  }
  return { write: (text) => fs.writeFile(path, text, { cwd, append: true }) };
}

function descriptor(streams: Streams, fd: number): OutputSink | undefined {
  if (fd === 1) return streams.stdout;
  if (fd === 2) return streams.stderr;
  return undefined;
}

function withOutput(streams: Streams, fd: number, sink: OutputSink): Streams {
  if (fd === 1) return { ...streams, stdout: sink };
  if (fd === 2) return { ...streams, stderr: sink };
  return streams; // descriptors above 2 are opened (files get created) but nothing in the simulation writes to them
}

/** Applies redirections left to right, so that `>f 2>&1` and `2>&1 >f` differ as they should. */
export async function applyRedirections(redirects: readonly Redirect[], streams: Streams, host: ExpansionHost): Promise<Streams> {
  let current = streams;
  for (const redirect of redirects) {
    const target = await expandText(redirect.target, host);
    switch (redirect.operator) {
      case "<<":
        current = redirect.fd === 0 ? { ...current, stdin: textInput(target) } : current;
        break;
      case "<":
      case "<>": {
        const { fs } = host.state.services;
        let content: string;
        try {
          if (redirect.operator === "<>" && !fs.exists(target, { cwd: host.state.cwd })) fs.writeFile(target, "", { cwd: host.state.cwd });
          content = target === "/dev/stdin" ? await current.stdin.readAll() : fs.readFile(target, { cwd: host.state.cwd });
        } catch (error) {
          if (!isFileSystemError(error)) throw error;
          throw new RedirectionError(redirectionMessage(host, target, "open", error.code, error.message));
        }
        current = redirect.fd === 0 ? { ...current, stdin: textInput(content) } : current;
        break;
      }
      case ">&":
      case "<&": {
        if (target === "-") {
          current = redirect.fd === 0 ? { ...current, stdin: textInput("") } : withOutput(current, redirect.fd, DISCARD);
          break;
        }
        if (!/^\d+$/.test(target)) {
          if (host.state.dialect === "bash" && redirect.operator === ">&" && redirect.fd === 1) {
            const sink = fileSink(host, target, false);
            current = { ...current, stdout: sink, stderr: sink };
            break;
          }
          throw new RedirectionError(host.state.dialect === "bash" ? `${target}: ambiguous redirect` : `Syntax error: Bad fd number`);
        }
        const source = Number(target);
        if (redirect.fd === 0 || source === 0) break; // stdin duplication: nothing to do with one-way text streams
        const sink = descriptor(current, source);
        if (sink === undefined) throw new RedirectionError(`${target}: Bad file descriptor`);
        current = withOutput(current, redirect.fd, sink);
        break;
      }
      default: {
        const special = target === "/dev/stdout" ? current.stdout : target === "/dev/stderr" ? current.stderr : target === "/dev/null" ? DISCARD : undefined;
        const sink = special ?? fileSink(host, target, redirect.operator === ">>");
        current = withOutput(current, redirect.fd, sink);
      }
    }
  }
  return current;
}
