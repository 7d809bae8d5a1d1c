import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMUNITY_BASE_IMAGE, PROFILE_CATALOGUE, containerFor, profileSchema } from "./profiles.ts";

describe("profileSchema", () => {
  it("refuses an unknown profile and lists the known ones", () => {
    const result = profileSchema.safeParse("cursor");
    expect(result.error?.issues[0]?.message).toBe("profile must be one of: generic, claude, opencode, custom");
  });
});

describe("PROFILE_CATALOGUE", () => {
  it("keeps Claude Code's state in .claude/", () => {
    expect(PROFILE_CATALOGUE.claude.statePaths).toContain(".claude/");
  });

  it("keeps OpenCode's state in .opencode/", () => {
    expect(PROFILE_CATALOGUE.opencode.statePaths).toContain(".opencode/");
  });

  it("gives custom no image, so the user has to choose one", () => {
    expect(PROFILE_CATALOGUE.custom.image).toBeUndefined();
  });
});

describe("containerFor", () => {
  it("uses the profile's image and command when the spec names none", () => {
    expect(containerFor({ profile: "claude" })).toEqual({ image: COMMUNITY_BASE_IMAGE, command: ["sleep", "infinity"] });
  });

  it("prefers the spec's own image and command", () => {
    expect(containerFor({ profile: "claude", image: "example.com/agent:1", command: ["agent"] })).toEqual({
      image: "example.com/agent:1",
      command: ["agent"],
    });
  });

  it("leaves the command to the image's entrypoint for custom", () => {
    expect(containerFor({ profile: "custom", image: "example.com/agent:1" }).command).toBeUndefined();
  });
});

describe("the profiles guide (docs/profiles.md)", () => {
  const guide = readFileSync(path.join(import.meta.dirname, "..", "..", "docs", "profiles.md"), "utf8");
  const rowOf = (profile: string) => guide.split("\n").find((line) => line.startsWith(`| \`${profile}\` |`))?.split("|").slice(1, -1).map((cell) => cell.trim()) ?? [];
  const quoted = (cell: string | undefined) => [...(cell ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]);

  it.each(Object.entries(PROFILE_CATALOGUE))("gives %s its label, image, commands and state paths", (profile, definition) => {
    const [, label, image, command, agent, statePaths] = rowOf(profile);
    expect({ label, image: quoted(image)[0], command: quoted(command)[0], agent: quoted(agent)[0], statePaths: quoted(statePaths) }).toEqual({
      label: definition.label,
      // Without a preset, the row names the spec's field that gives it.
      image: definition.image ?? "image",
      command: definition.command?.join(" ") ?? "command",
      agent: definition.agentCommand?.join(" "),
      statePaths: definition.statePaths,
    });
  });
});
