"use client";

import { useQuery } from "@tanstack/react-query";
import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { api } from "@/app/(console)/_components/api-client.ts";
import type { GatewayLimits } from "@/lib/domain/gateway-limits.ts";
import { PROFILE_CATALOGUE, PROFILES } from "@/lib/domain/profiles.ts";
import { SANDBOX_USER_ID } from "@/lib/render/pod-security.ts";
import { useNamespacesWhere } from "@/app/(console)/_components/viewer-context.tsx";
import type { NamespaceCapability } from "@/lib/domain/who-am-i.ts";
import { emptyEnvRow, type CreateFormValues } from "./create-form-values.ts";
import { RadioChoice, SelectField, TextField } from "./form-fields.tsx";
import buttons from "@/app/components/buttons.module.css";
import styles from "./create-sandbox-form.module.css";

// Who the sandbox is and what it runs: name, namespace, profile, image, command, labels, env, resources.

const PROFILE_NOTES: Record<(typeof PROFILES)[number], string> = {
  generic: "A shell environment on the community base image.",
  claude: "Claude Code; keeps .claude/ and .claude.json in the workspace.",
  opencode: "OpenCode; keeps .opencode/ and its XDG config and data in the workspace.",
  custom: `Your own image; you name it below. It runs as user ${SANDBOX_USER_ID}, not root, so its files must be readable by that user.`,
};

/** What the form makes: a sandbox, or a template (the same fields make the sandboxes it stands for). */
const MAKING = {
  sandbox: { heading: "Sandbox", capability: "createSandboxes", placeholder: "my-sandbox", where: "create sandboxes" },
  template: { heading: "Template", capability: "createTemplates", placeholder: "python-agents", where: "create templates" },
} as const satisfies Record<string, { heading: string; capability: NamespaceCapability; placeholder: string; where: string }>;

export function IdentitySection({ namespace, limits, making = "sandbox", fixedIdentity = false }: { namespace: string; limits: GatewayLimits; making?: keyof typeof MAKING; fixedIdentity?: boolean }) {
  const { control } = useFormContext<CreateFormValues>();
  const made = MAKING[making];
  // Offered: the namespaces Kubernetes lets the person create these in (it decides again on create).
  const creatable = useNamespacesWhere(made.capability);
  const profile = useWatch({ control, name: "profile" });
  const preset = PROFILE_CATALOGUE[profile];
  return (
    <section aria-labelledby="identity-heading" className={styles.section}>
      <h2 id="identity-heading" className={styles.sectionTitle}>
        {made.heading}
      </h2>
      <div className={styles.row}>
        <TextField name="name" label="Name" hint={fixedIdentity ? "A name cannot change: make a new one instead." : "Lower case letters, digits and '-', up to 63 characters."} placeholder={made.placeholder} readOnly={fixedIdentity} />
        <TextField
          name="namespace"
          label="Namespace"
          placeholder={namespace}
          list="creatable-namespaces"
          hint={fixedIdentity ? "A namespace cannot change." : `Empty: the gateway's namespace, ${namespace}. You may ${made.where} in: ${creatable.join(", ") || "no namespace"}.`}
          readOnly={fixedIdentity}
        />
        <datalist id="creatable-namespaces">
          {creatable.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <RadioChoice
        name="profile"
        legend="Profile"
        choices={PROFILES.map((value) => ({ value, label: PROFILE_CATALOGUE[value].label, description: PROFILE_NOTES[value] }))}
      />
      <div className={styles.row}>
        <TextField name="image" label="Image" placeholder={preset.image ?? "ghcr.io/example/agent:1.0"} hint={`${preset.image ? "Empty: the profile's image." : "Required for a custom profile."} Every sandbox runs as user ${SANDBOX_USER_ID} without root, extra privileges or a Kubernetes token (the restricted Pod Security Standard).`} monospace />
        <TextField
          name="command"
          label="Command"
          rows={2}
          placeholder={(preset.command ?? ["(the image's entrypoint)"]).join("\n")}
          hint="One argument per line. Empty: the profile's command, which keeps the pod alive for agents started inside it."
          monospace
        />
      </div>
      <TextField
        name="labels"
        label="Labels"
        rows={2}
        placeholder={"team=ml\nexample.com/owner=dana"}
        hint="One KEY=VALUE per line, to find the sandbox by: on its Sandbox and its pod, so berth get sandboxes -l team=ml and kubectl get pods -l team=ml both find it. Kubernetes', agent-sandbox's and Berth's own domains are kept for them."
        monospace
      />
      <EnvFields namespace={namespace} />
      <fieldset className={styles.choice} aria-describedby="resources-limits">
        <legend className={styles.label}>Resources</legend>
        <p id="resources-limits" className={styles.hint}>
          This gateway allows at most {limits.maxCpu} CPU and {limits.maxMemory} of memory, as request or limit.
        </p>
        <div className={styles.row4}>
          <TextField name="resources.requests.cpu" label="CPU request" placeholder="500m" />
          <TextField name="resources.limits.cpu" label="CPU limit" placeholder="2" />
          <TextField name="resources.requests.memory" label="Memory request" placeholder="1Gi" />
          <TextField name="resources.limits.memory" label="Memory limit" placeholder="4Gi" />
        </div>
      </fieldset>
    </section>
  );
}

const ENV_SOURCES = [
  { value: "value", label: "Value" },
  { value: "secret", label: "Secret value" },
  { value: "secretKey", label: "Key of a Secret" },
];

/** The Secrets of the namespace the sandbox goes to, by name and keys (never values), for "Key of a Secret". */
function useSecretNames(namespace: string) {
  return useQuery({
    queryKey: ["secret-names", namespace],
    queryFn: ({ signal }) => api.listSecretNames({ params: { namespace }, signal }),
    staleTime: 30_000,
    retry: false,
  });
}

function EnvFields({ namespace }: { namespace: string }) {
  const { control } = useFormContext<CreateFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "env" });
  const rows = useWatch({ control, name: "env" });
  const chosen = useWatch({ control, name: "namespace" }) || namespace;
  const wantsSecrets = rows.some((row) => row.source === "secretKey");
  const secrets = useSecretNames(chosen);
  const offered = wantsSecrets ? (secrets.data?.items ?? []) : [];
  return (
    <fieldset className={styles.choice}>
      <legend className={styles.label}>Environment variables</legend>
      {fields.length === 0 ? <p className={styles.hint}>None.</p> : null}
      {fields.map((field, index) => {
        const source = rows[index]?.source ?? "value";
        const keys = offered.find((secret) => secret.name === rows[index]?.secretName)?.keys ?? [];
        return (
          <div key={field.id} className={styles.listRow}>
            <TextField name={`env.${index}.name`} label={`Variable ${index + 1} name`} placeholder="API_BASE_URL" monospace />
            <SelectField name={`env.${index}.source`} label={`Variable ${index + 1} from`} options={ENV_SOURCES} />
            {source === "secretKey" ? (
              <>
                <TextField name={`env.${index}.secretName`} label={`Variable ${index + 1} Secret`} list={`secrets-${index}`} placeholder="team-token" monospace />
                <datalist id={`secrets-${index}`}>
                  {offered.map((secret) => (
                    <option key={secret.name} value={secret.name} />
                  ))}
                </datalist>
                <TextField name={`env.${index}.secretKey`} label={`Variable ${index + 1} key`} list={`secret-keys-${index}`} placeholder="token" monospace />
                <datalist id={`secret-keys-${index}`}>
                  {keys.map((key) => (
                    <option key={key} value={key} />
                  ))}
                </datalist>
              </>
            ) : (
              <TextField
                name={`env.${index}.value`}
                label={`Variable ${index + 1} value`}
                concealed={source === "secret"}
                hint={source === "secret" ? "Kept in a Secret of the sandbox's own: Berth never stores or shows it again." : undefined}
                monospace
              />
            )}
            <button type="button" className={buttons.secondary} onClick={() => remove(index)} aria-label={`Remove variable ${index + 1}`}>
              Remove
            </button>
          </div>
        );
      })}
      {wantsSecrets && secrets.isError ? <p className={styles.hint}>The Secrets of {chosen} cannot be listed for you ({secrets.error.message}); type the Secret's name and key.</p> : null}
      <button type="button" className={buttons.secondary} onClick={() => append(emptyEnvRow())}>
        Add variable
      </button>
    </fieldset>
  );
}
