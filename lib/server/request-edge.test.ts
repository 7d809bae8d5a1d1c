import { describe, expect, it } from "vitest";
import { LOCAL_ADDRESS_HEADER } from "../platform/peer-address.ts";
import { crossSite, misdirected, notJson, offLoopback } from "./request-edge.ts";

const headers = (values: Record<string, string>) => new Headers(values);
const codeOf = (found: { code: string } | null) => found?.code ?? null;
const BERTH = ["https://berth.example.com"];

describe("the Host check", () => {
  it("answers Berth's own names", () => {
    expect(misdirected(headers({ host: "Berth.Example.com" }), ["berth.example.com"])).toBeNull();
  });

  it("refuses another name, as a DNS-rebinding page would send", () => {
    expect(codeOf(misdirected(headers({ host: "evil.example:3000" }), ["berth.example.com"]))).toBe("host-not-allowed");
  });
});

describe("the JSON check", () => {
  it("lets a JSON body through", () => {
    expect(notJson(headers({ "content-type": "application/json; charset=utf-8", "content-length": "2" }))).toBeNull();
  });

  it("lets a request with no body through", () => {
    expect(notJson(headers({}))).toBeNull();
  });

  it("refuses text/plain, what a cross-site form can send", () => {
    expect(codeOf(notJson(headers({ "content-type": "text/plain", "content-length": "20" })))).toBe("unsupported-media-type");
  });

  it("refuses a body without a type", () => {
    expect(codeOf(notJson(headers({ "content-length": "20" })))).toBe("unsupported-media-type");
  });
});

describe("the origin check", () => {
  it("lets Berth's own origin through", () => {
    expect(crossSite(headers({ origin: "https://berth.example.com" }), BERTH)).toBeNull();
  });

  it("refuses another origin, naming it", () => {
    expect(crossSite(headers({ origin: "https://evil.example" }), BERTH)?.detail).toContain("this one came from https://evil.example");
  });

  it("refuses the opaque origin null", () => {
    expect(codeOf(crossSite(headers({ origin: "null", "sec-fetch-site": "cross-site" }), BERTH))).toBe("cross-site-request");
  });

  it("lets a same-origin request without Origin through", () => {
    expect(crossSite(headers({ "sec-fetch-site": "same-origin" }), BERTH)).toBeNull();
  });

  it("refuses a request that says nothing of where it came from", () => {
    expect(codeOf(crossSite(headers({}), BERTH))).toBe("cross-site-request");
  });
});

describe("none mode's loopback check", () => {
  it("serves a connection to 127.0.0.1", () => {
    expect(offLoopback(headers({ [LOCAL_ADDRESS_HEADER]: "127.0.0.1" }))).toBeNull();
  });

  it("refuses a connection to any other address", () => {
    expect(codeOf(offLoopback(headers({ [LOCAL_ADDRESS_HEADER]: "10.1.2.3" })))).toBe("loopback-only");
  });
});
