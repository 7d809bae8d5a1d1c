import { describe, expect, it } from "vitest";
import { ifNoneMatch } from "./conditional-requests.ts";

const asking = (value: string) => new Headers({ "If-None-Match": value });

describe("If-None-Match", () => {
  it("matches the same weak tag", () => {
    expect(ifNoneMatch(asking('W/"abc"'), 'W/"abc"')).toBe(true);
  });

  it("matches a strong tag against a weak one, as the weak comparison does", () => {
    expect(ifNoneMatch(asking('"abc"'), 'W/"abc"')).toBe(true);
  });

  it("matches one tag of a list", () => {
    expect(ifNoneMatch(asking('W/"old", W/"abc"'), 'W/"abc"')).toBe(true);
  });

  it("matches a star", () => {
    expect(ifNoneMatch(asking("*"), 'W/"abc"')).toBe(true);
  });

  it("does not match another tag", () => {
    expect(ifNoneMatch(asking('W/"old"'), 'W/"abc"')).toBe(false);
  });

  it("does not match when the header is absent", () => {
    expect(ifNoneMatch(new Headers(), 'W/"abc"')).toBe(false);
  });
});
