import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { expectGolden } from "../testing/golden-files.ts";
import { renderVolumeMoverPod } from "./volume-mover-pod.ts";
import { toYaml } from "./yaml.ts";

// The helper pod that copies a workspace into a claim of another class, as YAML, compared byte
// for byte. After a deliberate change, regenerate with `UPDATE_GOLDEN=1 npx vitest run lib/render`
// and review the diff.

const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), "testdata");

describe("the pod that moves a workspace to another class", () => {
  it("matches the golden file", () => {
    const pod = renderVolumeMoverPod(
      { namespace: "team-a", source: "workspace-agent-1", target: "workspace-agent-1-moved", targetUid: "7d3f0c1e-5b2a-4c1d-9e8f-0a1b2c3d4e5f", storageClassName: "csi-portable", image: "busybox:1.37", startedBy: "alex@berth.example", now: new Date("2026-12-06T08:00:00Z") },
      "berth.dev",
    );
    expectGolden(TESTDATA, "volume-mover-pod", toYaml(pod));
  });
});
