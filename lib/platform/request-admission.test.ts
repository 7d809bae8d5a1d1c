import { createServer, type IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { admitAtOnce, admitRequestsInTurn, isHealthProbe } from "./request-admission.ts";

describe("health probes", () => {
  it.each([
    ["GET", "/api/health", true],
    ["HEAD", "/api/health", true],
    ["GET", "/api/health/ready", true],
    ["GET", "/api/health/live", true],
    ["POST", "/api/health", false],
    ["GET", "/api/health?verbose=1", false],
    ["GET", "/api/v1/events", false],
  ])("%s %s goes in at once: %s", (method, url, probe) => {
    expect(isHealthProbe({ method, url })).toBe(probe);
  });
});

describe("HTTP servers behind the admission queue", () => {
  const request = (url: string) => ({ method: "GET", url, headers: {} }) as IncomingMessage;

  it("serve a health probe before the crowd that came ahead of it", () => {
    admitRequestsInTurn();
    const entered: string[] = [];
    const server = createServer((incoming) => entered.push(incoming.url!));
    for (let index = 0; index < 20; index++) server.emit("request", request(`/api/v1/events?n=${index}`), {});
    server.emit("request", request("/api/health"), {});
    expect(entered.at(-1)).toBe("/api/health");
    expect(entered.length).toBeLessThan(21);
  });

  it("let every request to a server that stands for another process in at once", () => {
    admitRequestsInTurn();
    const entered: string[] = [];
    const server = admitAtOnce(createServer((incoming) => entered.push(incoming.url!)));
    for (let index = 0; index < 20; index++) server.emit("request", request(`/apis/n=${index}`), {});
    expect(entered).toHaveLength(20);
  });
});
