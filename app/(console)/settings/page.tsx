import type { Metadata } from "next";
import { InfoIcon } from "@/app/components/icons.tsx";
import { PageHeader } from "@/app/components/page-header.tsx";
import { SettingsList, type SettingEntry } from "@/app/components/settings-list.tsx";
import { EDITABLE_GATEWAY_KEYS, type EditableGatewayKey, type GatewaySetting, type GatewaySettingsForm } from "@/lib/domain/gateway-settings.ts";
import { gatewaySettings, SETTINGS_AUDIT_TARGET } from "@/lib/sandboxes/gateway-settings.ts";
import { permissionOnCluster } from "../_components/permissions.ts";
import { requireViewer } from "../_components/page-caller.ts";
import { RefusedPage } from "../_components/refused-page.tsx";
import { displayValue, SETTING_PRESENTATION } from "./_components/setting-presentation.ts";
import { SettingsForm, type ChangedSetting } from "./_components/settings-form.tsx";
import { SettingsHistory } from "./_components/settings-history.tsx";
import styles from "../page.module.css";
import pageStyles from "./settings-page.module.css";

export const metadata: Metadata = { title: "Settings" };

const HISTORY_LENGTH = 20;

function sourceDetail(setting: GatewaySetting, configFile: string | null): string | undefined {
  if (setting.source === "berth") return `by ${setting.changedBy}`;
  if (setting.source === "environment") return setting.environmentVariable;
  if (setting.source === "file") return configFile ?? undefined;
  return undefined;
}

export default async function SettingsPage() {
  const { runtime, you } = await requireViewer();
  const readable = permissionOnCluster(you, "readSettings");
  if (!readable.allowed) {
    return (
      <RefusedPage header={<PageHeader title="Settings" />} title="Kubernetes does not let you read the gateway defaults">
        {readable.reason}
      </RefusedPage>
    );
  }
  const changeable = permissionOnCluster(you, "changeSettings");
  const [settings, history] = await Promise.all([gatewaySettings(runtime), runtime.store.audit.listChanges({ limit: HISTORY_LENGTH, ...SETTINGS_AUDIT_TARGET })]);

  const entries: SettingEntry[] = settings.map((setting) => {
    const detail = sourceDetail(setting, runtime.config.configFile);
    return {
      key: setting.key,
      ...SETTING_PRESENTATION[setting.key],
      helmValue: setting.helmValue,
      value: displayValue(setting.key, setting.value),
      source: setting.source,
      ...(detail ? { sourceDetail: detail } : {}),
    };
  });
  const byKey = (key: EditableGatewayKey) => settings.find((setting) => setting.key === key)!;
  const initial: GatewaySettingsForm = {
    workspaceBackend: byKey("workspaceBackend").value as GatewaySettingsForm["workspaceBackend"],
    workspaceDefaultStorageSize: byKey("workspaceDefaultStorageSize").value ?? "",
    workspaceStorageClass: byKey("workspaceStorageClass").value,
    sandboxNamespace: byKey("sandboxNamespace").value ?? "",
  };
  const changed: Partial<Record<EditableGatewayKey, ChangedSetting>> = Object.fromEntries(
    EDITABLE_GATEWAY_KEYS.flatMap((key) => {
      const setting = byKey(key);
      return setting.source === "berth" ? [[key, { by: setting.changedBy ?? "someone", configured: setting.configured }]] : [];
    }),
  );

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
            The configuration sets these at start: an environment variable (<code>BERTH_WORKSPACE_BACKEND</code> and so
            on) wins over the config file named by <code>BERTH_CONFIG_FILE</code>, which wins over the built-in default;
            in a Helm install, the values named beside each one. A change made here wins over the configuration, is
            kept in Berth&apos;s store (so it survives restarts and holds for every replica), and applies to the next
            sandbox created; existing sandboxes keep what they were made with. Reset a change to follow the
            configuration again. The workspace mount path and the label prefix are configuration-only: Berth finds the
            sandboxes it made by them.
          </span>
        </p>
        <SettingsList entries={entries} />
      </section>
      <div className={pageStyles.section}>
        {changeable.allowed ? <SettingsForm initial={initial} changed={changed} /> : <p className={styles.note}>Changing the defaults is for platform admins: {changeable.reason}</p>}
      </div>
      <section aria-labelledby="settings-history" className={pageStyles.section}>
        <h2 id="settings-history" className={styles.sectionTitle}>
          History
        </h2>
        <SettingsHistory entries={history.items} />
      </section>
    </>
  );
}
