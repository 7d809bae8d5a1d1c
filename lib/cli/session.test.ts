import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withContext, writeConfig } from "./cli-config.ts";
import { NoServerError, openSession } from "./session.ts";

// Which Berth a command talks to and with which token: --server > BERTH_SERVER > the context,
// and a context's token never goes to another server.

let dir: string;
let env: Record<string, string>;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "berth-session-"));
  const file = path.join(dir, "config.yaml");
  env = { BERTH_CONFIG: file };
  writeConfig(file, withContext({ contexts: [] }, { name: "prod", server: "https://berth.example.com", token: "context-token", namespace: "team-a" }));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the session of a command", () => {
  it("talks to the current context's server with its token and namespace", () => {
    const { server, token, namespace } = openSession({}, env);
    expect({ server, token, namespace }).toEqual({ server: "https://berth.example.com", token: "context-token", namespace: "team-a" });
  });

  it("takes BERTH_SERVER over the context, and --server over both", () => {
    expect([openSession({}, { ...env, BERTH_SERVER: "http://b:1" }).server, openSession({ server: "http://c:2" }, { ...env, BERTH_SERVER: "http://b:1" }).server]).toEqual(["http://b:1", "http://c:2"]);
  });

  it("never sends the context's token or namespace to another server", () => {
    const { token, namespace } = openSession({ server: "http://elsewhere:3000" }, env);
    expect({ token, namespace }).toEqual({ token: undefined, namespace: undefined });
  });

  it("takes --token over BERTH_TOKEN over the context's", () => {
    expect([openSession({}, { ...env, BERTH_TOKEN: "from-env" }).token, openSession({ token: "from-flag" }, { ...env, BERTH_TOKEN: "from-env" }).token]).toEqual(["from-env", "from-flag"]);
  });

  it("says how to name a server when there is none", () => {
    expect(() => openSession({}, { BERTH_CONFIG: path.join(dir, "empty.yaml") })).toThrow(NoServerError);
  });

  it("refuses a context that is not there", () => {
    expect(() => openSession({ context: "staging" }, env)).toThrow(/There is no context staging/);
  });
});
