import { describe, expect, it } from "vitest";
import { unsupportedNodeRuntime } from "./node-runtime.ts";

describe("the Node.js Berth runs on", () => {
  it("accepts 22.12 and every later release", () => {
    for (const version of ["v22.12.0", "v22.23.3", "v24.1.0", "v26.10.0"]) expect(unsupportedNodeRuntime(version)).toBeUndefined();
  });

  it("refuses Node.js 20, naming the version and how to start Berth instead", () => {
    expect(unsupportedNodeRuntime("v20.20.2")).toMatch(/needs Node\.js 22\.12 or later; this is v20\.20\.2\. Start it with `npm start`/);
  });

  it("refuses a 22 older than 22.12", () => {
    expect(unsupportedNodeRuntime("v22.11.0")).toMatch(/this is v22\.11\.0/);
  });

  it("refuses a version it cannot read rather than guessing", () => {
    expect(unsupportedNodeRuntime("unknown")).toMatch(/could not read/);
  });

  it("is the Node.js these tests run on", () => {
    expect(unsupportedNodeRuntime(process.version)).toBeUndefined();
  });
});
