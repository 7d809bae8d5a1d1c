import { describe, expect, it } from "vitest";
import { parseQuantity, positiveQuantity } from "./quantity.ts";

describe("parseQuantity", () => {
  it.each([
    ["2Gi", 2 * 2 ** 30],
    ["500Mi", 500 * 2 ** 20],
    ["10G", 10e9],
    ["500m", 0.5],
    ["1.5", 1.5],
    ["1e3", 1000],
    [".5Ki", 512],
  ])("reads %s", (text, value) => {
    expect(parseQuantity(text)).toBe(value);
  });

  it.each(["", "2 Gi", "2GB", "Gi", "2gi", "1.2.3", "--1"])("refuses %j", (text) => {
    expect(parseQuantity(text)).toBeNull();
  });
});

describe("positiveQuantity", () => {
  it("refuses zero, with a message that gives examples", () => {
    const result = positiveQuantity("size").safeParse("0Gi");
    expect(result.error?.issues[0]?.message).toBe("size must be a positive Kubernetes quantity such as 2Gi, 500Mi or 10G");
  });
});
