import { describe, expect, it } from "vitest";
import { VolumeData } from "./volume-data.ts";

function sample(): VolumeData {
  const volume = VolumeData.empty(1_000);
  volume.writeText("/notes/today.md", "# today\n", 2_000);
  volume.writeText("/__proto__", "tricky name", 3_000);
  volume.ensureDirectory("/empty/dir", 4_000);
  return volume;
}

describe("VolumeData", () => {
  it("round-trips through JSON text with contents, mtimes and modes intact", () => {
    const volume = sample();
    const restored = VolumeData.fromJSON(JSON.parse(JSON.stringify(volume)));
    expect(restored.readText("notes/today.md")).toBe("# today\n");
    expect(restored.readText("/__proto__")).toBe("tricky name");
    expect(restored.lookup("/notes/today.md")).toMatchObject({ kind: "file", mtimeMs: 2_000, mode: 0o644 });
    expect(restored.list("/empty")).toEqual(["dir"]);
    expect(restored.toJSON()).toEqual(volume.toJSON());
  });

  it("refuses persisted data of another shape", () => {
    expect(() => VolumeData.fromJSON({ format: "berth.sim.volume/v1", root: { kind: "file" } })).toThrow();
    expect(() => VolumeData.fromJSON({ root: { name: "", kind: "directory", mtimeMs: 0, mode: 0, children: [] } })).toThrow();
  });

  it("clones deeply: writing to the copy leaves the original alone", () => {
    const original = sample();
    const copy = original.clone();
    copy.writeText("/notes/today.md", "changed", 5_000);
    copy.writeText("/notes/new.md", "new", 5_000);
    expect(original.readText("/notes/today.md")).toBe("# today\n");
    expect(original.list("/notes")).toEqual(["today.md"]);
  });

  it("counts what it holds", () => {
    expect(sample().usage()).toEqual({ files: 2, directories: 4, bytes: 8 + 11 });
  });

  it("will not put a file where a file blocks the directory path", () => {
    const volume = sample();
    expect(() => volume.writeText("/notes/today.md/inner", "x", 0)).toThrow("Not a directory");
  });
});
