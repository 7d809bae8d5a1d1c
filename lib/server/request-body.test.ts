import { describe, expect, it } from "vitest";
import { forbiddenText, MAX_JSON_DEPTH, PayloadTooLargeError, readBoundedText, UnreadableBodyError } from "./request-body.ts";

const post = (body: BodyInit, headers: Record<string, string> = {}) => new Request("http://berth.test/api", { method: "POST", body, headers });

describe("readBoundedText", () => {
  it("reads a body at the cap exactly", async () => {
    expect(await readBoundedText(post("a".repeat(1024)), 1024)).toHaveLength(1024);
  });

  it("refuses one byte over the cap", async () => {
    await expect(readBoundedText(post("a".repeat(1025)), 1024)).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it("counts bytes, not characters", async () => {
    await expect(readBoundedText(post("é".repeat(600)), 1024)).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it("refuses bytes that are not UTF-8 instead of replacing them", async () => {
    await expect(readBoundedText(post(new Uint8Array([0x61, 0xc3])), 1024)).rejects.toMatchObject({ code: "invalid-encoding" });
  });
});

describe("forbiddenText", () => {
  it("finds nothing in ordinary text, emoji included", () => {
    expect(forbiddenText({ name: "box", env: [{ name: "GREETING", value: "héllo 👋" }] })).toEqual([]);
  });

  it("names the field that holds a NUL", () => {
    expect(forbiddenText({ env: [{ name: "K", value: "a\u0000" }] })).toMatchObject([{ path: ["env", 0, "value"], message: expect.stringMatching(/^env\[0\]\.value contains a NUL/) }]);
  });

  it("finds a lone high surrogate and a lone low one", () => {
    expect(forbiddenText(["\ud800", "x\udc00"]).map((problem) => problem.path)).toEqual([[0], [1]]);
  });

  it("looks at keys too", () => {
    expect(forbiddenText({ labels: { "a\u0000": "b" } })).toMatchObject([{ path: ["labels", "a\u0000"], message: expect.stringContaining("a key of labels") }]);
  });

  it("refuses nesting deeper than any request needs, without overflowing the stack", () => {
    let deep: unknown = "leaf";
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(() => forbiddenText(deep)).toThrow(UnreadableBodyError);
  });

  it("accepts nesting to the limit", () => {
    let deep: unknown = "leaf";
    for (let level = 0; level < MAX_JSON_DEPTH; level++) deep = [deep];
    expect(forbiddenText(deep)).toEqual([]);
  });
});
