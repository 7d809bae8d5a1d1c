// Writes the CustomResourceDefinitions the embedded cluster serves, as their projects publish
// them: agent-sandbox's (Sandbox, and the extensions' SandboxTemplate, SandboxClaim,
// SandboxWarmPool) at the version the real control plane lane installs, and the CSI snapshot
// CRDs. Each module is fetched from the Go module proxy (`go mod download`) and its CRD files read
// as they are; the result is committed, so a fresh clone serves them without Go.
//
//   npm run generate:custom-resources
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { moduleDirectory, pinnedVersion } from "./cluster/pinned-modules.ts";
import { parse } from "yaml";

const root = path.resolve(import.meta.dirname, "..");
const output = path.join(root, "lib", "sim", "api", "generated", "custom-resource-definitions.json");

const SOURCES = [
  {
    module: "sigs.k8s.io/agent-sandbox",
    version: pinnedVersion("AGENT_SANDBOX_VERSION"),
    files: ["agents.x-k8s.io_sandboxes.yaml", "extensions.agents.x-k8s.io_sandboxtemplates.yaml", "extensions.agents.x-k8s.io_sandboxclaims.yaml", "extensions.agents.x-k8s.io_sandboxwarmpools.yaml"].map((file) => `k8s/crds/${file}`),
  },
  {
    module: "github.com/kubernetes-csi/external-snapshotter/client/v8",
    version: pinnedVersion("EXTERNAL_SNAPSHOTTER_VERSION"),
    files: ["snapshot.storage.k8s.io_volumesnapshots.yaml", "snapshot.storage.k8s.io_volumesnapshotclasses.yaml", "snapshot.storage.k8s.io_volumesnapshotcontents.yaml"].map((file) => `config/crd/${file}`),
  },
];


const definitions = SOURCES.flatMap(({ module, version, files }) => {
  const directory = moduleDirectory(module, version, root);
  return files.map((file) => {
    const crd = parse(readFileSync(path.join(directory, file), "utf8")) as { kind?: string; metadata?: { annotations?: Record<string, string> } };
    if (crd.kind !== "CustomResourceDefinition") throw new Error(`${module}@${version}/${file} is not a CustomResourceDefinition`);
    return { source: `${module}@${version}/${file}`, definition: crd };
  });
});

writeFileSync(output, `${JSON.stringify({ generatedBy: "scripts/generate-custom-resources.ts", definitions })}\n`);
console.log(`Wrote ${definitions.length} definitions to ${path.relative(root, output)}`);
