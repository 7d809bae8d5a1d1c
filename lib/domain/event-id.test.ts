import { describe, expect, it } from "vitest";
import { isSerialId } from "./event-id.ts";

describe("an event id as it travels", () => {
  it("is decimal digits", () => {
    expect(["0", "1", "42", "9223372036854775807"].every(isSerialId)).toBe(true);
  });

  it("is never larger than a bigint holds", () => {
    expect(["9223372036854775808", "9999999999999999999", "99999999999999999999999999"].some(isSerialId)).toBe(false);
  });

  it("is never a sign, a fraction, an exponent or blank", () => {
    expect(["-1", "+1", "1.5", "1e3", "", " 1", "0x10"].some(isSerialId)).toBe(false);
  });
});
