"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { Controller, useForm, type FieldPath } from "react-hook-form";
import { EDITABLE_GATEWAY_KEYS, gatewaySettingsFormSchema, type EditableGatewayKey, type GatewaySettingsForm } from "@/lib/domain/gateway-settings.ts";
import { displayValue, SETTING_PRESENTATION } from "./setting-presentation.ts";
import { saveSettings } from "./save-settings.ts";
import styles from "./settings-form.module.css";
import { DisabledUntilHydrated } from "@/app/(console)/_components/disabled-until-hydrated.tsx";
import buttons from "@/app/components/buttons.module.css";

type StorageClassMode = "cluster" | "none" | "named";

const modeOf = (value: string | null): StorageClassMode => (value === null ? "cluster" : value === "" ? "none" : "named");

export interface ChangedSetting {
  by: string;
  /** What the configuration says underneath the change. */
  configured: string | null;
}

const isFormKey = (field: string): field is EditableGatewayKey => (EDITABLE_GATEWAY_KEYS as readonly string[]).includes(field);

/**
 * Edits the gateway defaults with the schema the server validates with. A value the server
 * refuses comes back onto its field; what was typed stays.
 */
export function SettingsForm({ initial, changed }: { initial: GatewaySettingsForm; changed: Partial<Record<EditableGatewayKey, ChangedSetting>> }) {
  const router = useRouter();
  const ids = useId();
  const [status, setStatus] = useState<string | null>(null);
  const [storageClassMode, setStorageClassMode] = useState<StorageClassMode>(modeOf(initial.workspaceStorageClass));
  const [storageClassName, setStorageClassName] = useState(initial.workspaceStorageClass ?? "");
  const {
    control,
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<GatewaySettingsForm>({ resolver: zodResolver(gatewaySettingsFormSchema), defaultValues: initial });

  // The page sends the defaults in effect again after every save or reset (router.refresh).
  const current = JSON.stringify(initial);
  useEffect(() => {
    const next = JSON.parse(current) as GatewaySettingsForm;
    reset(next);
    setStorageClassMode(modeOf(next.workspaceStorageClass));
    setStorageClassName(next.workspaceStorageClass ?? "");
  }, [current, reset]);

  const answer = async (result: Awaited<ReturnType<typeof saveSettings>>, saved: string, values?: GatewaySettingsForm) => {
    if (result.ok) {
      if (values) reset(values);
      setStatus(saved);
      router.refresh();
      return;
    }
    setStatus(null);
    const onFields = result.fields.filter((one) => isFormKey(one.field));
    for (const one of onFields) setError(one.field as FieldPath<GatewaySettingsForm>, { type: "server", message: one.message }, { shouldFocus: true });
    if (onFields.length < result.fields.length || result.fields.length === 0) setError("root", { type: "server", message: result.message });
  };

  const onSubmit = handleSubmit(async (values) => {
    // "Named" with no name would send "", which means "no class": ask for the name instead.
    if (storageClassMode === "named" && values.workspaceStorageClass === "") {
      setError("workspaceStorageClass", { type: "required", message: "Type a StorageClass name, or choose No class" }, { shouldFocus: true });
      return;
    }
    await answer(await saveSettings(values), "Saved. New sandboxes get these defaults from now on.", values);
  });

  const resetToConfiguration = async (key: EditableGatewayKey) => {
    await answer(await saveSettings({ reset: [key] }), `${SETTING_PRESENTATION[key].label} follows the configuration again.`);
  };

  const fieldError = (key: EditableGatewayKey) =>
    errors[key]?.message ? (
      <p id={`${ids}-${key}-error`} className={styles.error}>
        {errors[key].message}
      </p>
    ) : null;
  const describedBy = (key: EditableGatewayKey) => [`${ids}-${key}-help`, errors[key] ? `${ids}-${key}-error` : ""].filter(Boolean).join(" ");

  const changedNote = (key: EditableGatewayKey) => {
    const change = changed[key];
    if (!change) return null;
    const configured = displayValue(key, change.configured).text;
    return (
      <p className={styles.changed}>
        Changed through Berth by {change.by}; the configuration says {configured}.{" "}
        <button type="button" className={styles.linkButton} onClick={() => void resetToConfiguration(key)} disabled={isSubmitting}>
          Reset {SETTING_PRESENTATION[key].label.toLowerCase()} to the configuration
        </button>
      </p>
    );
  };

  const textField = (key: "workspaceDefaultStorageSize" | "sandboxNamespace", placeholder: string) => (
    <div className={styles.field}>
      <label htmlFor={`${ids}-${key}`} className={styles.label}>
        {SETTING_PRESENTATION[key].label}
      </label>
      <p id={`${ids}-${key}-help`} className={styles.help}>
        {SETTING_PRESENTATION[key].description}
      </p>
      <input
        id={`${ids}-${key}`}
        className={styles.input}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={describedBy(key)}
        {...register(key)}
      />
      {fieldError(key)}
      {changedNote(key)}
    </div>
  );

  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby={`${ids}-title`}>
      <DisabledUntilHydrated>
        <h2 id={`${ids}-title`} className={styles.title}>
          Change the defaults
        </h2>

        <fieldset className={styles.field} aria-describedby={describedBy("workspaceBackend")}>
          <legend className={styles.label}>{SETTING_PRESENTATION.workspaceBackend.label}</legend>
          <p id={`${ids}-workspaceBackend-help`} className={styles.help}>
            {SETTING_PRESENTATION.workspaceBackend.description}
          </p>
          <div className={styles.choices}>
            {(["pvc", "ephemeral"] as const).map((backend) => (
              <label key={backend} className={styles.choice}>
                <input type="radio" value={backend} {...register("workspaceBackend")} />
                <code>{backend}</code>
              </label>
            ))}
          </div>
          {fieldError("workspaceBackend")}
          {changedNote("workspaceBackend")}
        </fieldset>

        {textField("workspaceDefaultStorageSize", "2Gi")}

        <Controller
          control={control}
          name="workspaceStorageClass"
          render={({ field }) => (
            <fieldset className={styles.field} aria-describedby={describedBy("workspaceStorageClass")}>
              <legend className={styles.label}>{SETTING_PRESENTATION.workspaceStorageClass.label}</legend>
              <p id={`${ids}-workspaceStorageClass-help`} className={styles.help}>
                {SETTING_PRESENTATION.workspaceStorageClass.description}
              </p>
              <div className={styles.choices}>
                {(
                  [
                    ["cluster", "Cluster default", null],
                    ["none", "No class", ""],
                    ["named", "Named class", storageClassName],
                  ] as const
                ).map(([mode, label, value]) => (
                  <label key={mode} className={styles.choice}>
                    <input
                      type="radio"
                      name={field.name}
                      checked={storageClassMode === mode}
                      onChange={() => {
                        setStorageClassMode(mode);
                        field.onChange(value);
                      }}
                      onBlur={field.onBlur}
                    />
                    {label}
                  </label>
                ))}
              </div>
              {storageClassMode === "named" ? (
                <div className={styles.nested}>
                  <label htmlFor={`${ids}-storageClassName`} className={styles.label}>
                    Storage class name
                  </label>
                  <input
                    id={`${ids}-storageClassName`}
                    ref={field.ref}
                    className={styles.input}
                    value={storageClassName}
                    placeholder="portable"
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={errors.workspaceStorageClass ? true : undefined}
                    aria-describedby={errors.workspaceStorageClass ? `${ids}-workspaceStorageClass-error` : undefined}
                    onChange={(event) => {
                      setStorageClassName(event.target.value);
                      field.onChange(event.target.value);
                    }}
                    onBlur={field.onBlur}
                  />
                </div>
              ) : null}
              {fieldError("workspaceStorageClass")}
              {changedNote("workspaceStorageClass")}
            </fieldset>
          )}
        />

        {textField("sandboxNamespace", "default")}

        {errors.root?.message ? (
          <p role="alert" className={styles.error}>
            {errors.root.message}
          </p>
        ) : null}
        <div className={styles.actions}>
          <button type="submit" className={buttons.primary} disabled={isSubmitting}>
            {isSubmitting ? "Saving…" : "Save changes"}
          </button>
          <p role="status" className={styles.status}>
            {status && !isDirty ? status : ""}
          </p>
        </div>
      </DisabledUntilHydrated>
    </form>
  );
}
