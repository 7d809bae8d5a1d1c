import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RENEWED_TOKEN_HEADER } from "../domain/cli-sign-in.ts";
import { readConfig, withContext, writeConfig } from "./cli-config.ts";
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

describe("a Berth token renewed by the server", () => {
  let server: Server;
  let url: string;
  let sent: string[];
  beforeEach(async () => {
    // A Berth whose every answer carries a renewed token, as one does after refreshing a sign-in.
    sent = [];
    server = createServer((request, response) => {
      sent.push(request.headers.authorization ?? "");
      response.writeHead(200, { "Content-Type": "application/json", [RENEWED_TOKEN_HEADER]: "berth_renewed" }).end(JSON.stringify({ status: "ok" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeConfig(env.BERTH_CONFIG!, withContext({ contexts: [] }, { name: "local", server: url, token: "berth_first" }));
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("replaces the context's token, so the next command goes on signed in", async () => {
    await openSession({}, env).client.liveness({});
    expect(readConfig(env.BERTH_CONFIG!).contexts[0]?.token).toBe("berth_renewed");
  });

  it("is not kept when the token came from BERTH_TOKEN rather than the context", async () => {
    await openSession({}, { ...env, BERTH_TOKEN: "berth_from-env" }).client.liveness({});
    expect(readConfig(env.BERTH_CONFIG!).contexts[0]?.token).toBe("berth_first");
  });

  it("is what the command sends from then on", async () => {
    const client = openSession({}, env).client;
    await client.liveness({});
    await client.liveness({});
    expect(sent).toEqual(["Bearer berth_first", "Bearer berth_renewed"]);
  });
});
