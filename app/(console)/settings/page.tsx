import type { Metadata } from "next";
import { connection } from "next/server";
import { environmentVariableFor, GATEWAY_KEYS, helmValueFor, type GatewayKey } from "@/lib/config/gateway-keys.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { InfoIcon } from "@/app/components/icons.tsx";
import { PageHeader } from "@/app/components/page-header.tsx";
import { SettingsList, type SettingEntry } from "@/app/components/settings-list.tsx";
import styles from "../page.module.css";

export const metadata: Metadata = { title: "Settings" };

/** How each gateway default is presented. Names of variables and Helm values come from lib/config. */
const PRESENTATION: Record<GatewayKey, { label: string; description: string }> = {
  workspaceBackend: {
    label: "Workspace backend",
    description:
      "pvc keeps the workspace on a claim that survives pod replacement; ephemeral uses an emptyDir that starts fresh with every pod.",
  },
  workspaceDefaultStorageSize: {
    label: "Default storage size",
    description: "Size requested for a workspace claim when the sandbox does not ask for one.",
  },
  workspaceStorageClass: {
    label: "Storage class",
    description: "StorageClass for workspace claims: unset uses the cluster's default class, empty asks for no class.",
  },
  workspaceMountPath: {
    label: "Workspace mount path",
    description: "Where the workspace is mounted in the agent container.",
  },
  sandboxNamespace: {
    label: "Sandbox namespace",
    description: "Namespace new sandboxes are created in.",
  },
  labelPrefix: {
    label: "Label prefix",
    description: "Prefix of the labels Berth puts on the objects it creates.",
  },
};

function displayValue(key: GatewayKey, value: string | undefined): SettingEntry["value"] {
  if (key === "workspaceStorageClass") {
    if (value === undefined) return { kind: "meaning", text: "cluster default" };
    if (value === "") return { kind: "meaning", text: "no class" };
  }
  return value === undefined ? { kind: "meaning", text: "not set" } : { kind: "literal", text: value };
}

export default async function SettingsPage() {
  await connection();
  const { config } = await getRuntime();

  const entries: SettingEntry[] = GATEWAY_KEYS.map((key) => {
    const source = config.sources[key];
    const sourceDetail =
      source === "environment" ? environmentVariableFor(key) : source === "file" ? (config.configFile ?? undefined) : undefined;
    return {
      key,
      ...PRESENTATION[key],
      helmValue: helmValueFor(key),
      value: displayValue(key, config.gateway[key]),
      source,
      ...(sourceDetail ? { sourceDetail } : {}),
    };
  });

  return (
    <>
      <PageHeader
        title="Settings"
        description="Gateway defaults that apply to every new sandbox unless the sandbox overrides them."
      />
      <section aria-labelledby="gateway-defaults">
        <h2 id="gateway-defaults" className={styles.sectionTitle}>
          Gateway defaults
        </h2>
        <p className={styles.note}>
          <InfoIcon />
          <span>
            Read-only here. Berth reads these once at start: an environment variable (
            <code>{environmentVariableFor("workspaceBackend")}</code> and so on) wins over the config file named by{" "}
            <code>BERTH_CONFIG_FILE</code>, which wins over the built-in default. In a Helm install, set the values
            named beside each one. Change them there and restart the server.
          </span>
        </p>
        <SettingsList entries={entries} />
      </section>
    </>
  );
}
