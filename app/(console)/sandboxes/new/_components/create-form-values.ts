import type { SandboxSpec, SandboxSpecInput } from "@/lib/domain/sandbox-spec.ts";
import type { WarmPool } from "@/lib/domain/sandbox-template.ts";
import type { ProblemPath } from "@/lib/domain/problems.ts";
import type { Profile } from "@/lib/domain/profiles.ts";
import type { CheckpointFailurePolicy } from "@/lib/domain/disruption-policy.ts";
import type { WorkspaceBackend } from "@/lib/domain/gateway-defaults.ts";
import { storageClassChoice, storageClassNameFor, type AccessMode, type ClaimOwnership, type StorageClassChoice } from "@/lib/domain/workspace.ts";

// The create form's own state and its translation into the sandbox spec. The form holds what a
// person types (text, ticks, a class picked from a list); the spec is what the API takes. One
// translation each way keeps the browser on the server's schema: the form is validated by
// turning it into a spec and parsing that with sandboxSpecSchema, and every problem — found here
// or by the server — is put back on the field its spec path names.

type StorageClassField = { choice: StorageClassChoice["kind"]; name: string };

export interface ExtraVolumeValues {
  name: string;
  mountPath: string;
  readOnly: boolean;
  subPath: string;
  pvc: {
    claimName: string;
    createIfNotExists: boolean;
    deleteOnSandboxTermination: boolean;
    storageClass: StorageClassField;
    storage: string;
    accessModes: AccessMode[];
  };
}

/** Where a variable's value comes from: typed in, typed in as a secret, or a key of an existing Secret. */
export type EnvSource = "value" | "secret" | "secretKey";

export interface EnvRow {
  name: string;
  source: EnvSource;
  value: string;
  secretName: string;
  secretKey: string;
}

export const emptyEnvRow = (): EnvRow => ({ name: "", source: "value", value: "", secretName: "", secretKey: "" });

function envVarOf(row: EnvRow) {
  if (row.source === "secretKey") return { name: row.name, valueFrom: { secretKeyRef: { name: row.secretName, key: row.secretKey } } };
  return row.source === "secret" ? { name: row.name, value: row.value, secret: true } : { name: row.name, value: row.value };
}

const isBlank = (row: EnvRow) => row.name === "" && row.value === "" && row.secretName === "" && row.secretKey === "";

export interface CreateFormValues {
  name: string;
  namespace: string;
  profile: Profile;
  image: string;
  /** One argument per line; empty: the profile's command. */
  command: string;
  /** One KEY=VALUE per line; a line without "=" is a key with an empty value. */
  labels: string;
  env: EnvRow[];
  resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
  workspace: {
    backend: WorkspaceBackend;
    mountPath: string;
    claim: {
      ownership: ClaimOwnership;
      claimName: string;
      storageClass: StorageClassField;
      size: string;
      accessModes: AccessMode[];
    };
  };
  volumes: ExtraVolumeValues[];
  disruptionPolicy: {
    evictionProtection: boolean;
    terminationGracePeriodSeconds: string;
    checkpointGracePeriodSeconds: string;
    checkpointFailurePolicy: CheckpointFailurePolicy;
    /** A shell line, run as `sh -c <line>`; empty: no hook. */
    checkpointHook: string;
    autoRecoverFailedPods: boolean;
    snapshotOnCheckpoint: boolean;
  };
  /** When the form makes a template: its own fields, beside those of the sandboxes it stands for. */
  template?: TemplateFields;
}

export interface TemplateFields {
  description: string;
  /** Empty: no warm pool. */
  warmPoolReplicas: string;
  updateStrategy: WarmPool["updateStrategy"];
}

/** What the form starts with: the gateway's backend, everything else as the spec's own defaults. */
export function initialFormValues(gatewayBackend: WorkspaceBackend, claim?: { namespace: string; name: string }): CreateFormValues {
  return {
    name: "",
    namespace: claim?.namespace ?? "",
    profile: "generic",
    image: "",
    command: "",
    labels: "",
    env: [],
    resources: { requests: { cpu: "", memory: "" }, limits: { cpu: "", memory: "" } },
    workspace: {
      backend: claim ? "pvc" : gatewayBackend,
      mountPath: "",
      claim: {
        ownership: claim ? "existing" : "template",
        claimName: claim?.name ?? "",
        storageClass: { choice: "cluster-default", name: "" },
        size: "",
        accessModes: ["ReadWriteOnce"],
      },
    },
    volumes: [],
    disruptionPolicy: {
      evictionProtection: false,
      terminationGracePeriodSeconds: "30",
      checkpointGracePeriodSeconds: "",
      checkpointFailurePolicy: "Block",
      checkpointHook: "",
      autoRecoverFailedPods: true,
      snapshotOnCheckpoint: false,
    },
  };
}

export function newExtraVolume(index: number): ExtraVolumeValues {
  return {
    name: `data-${index + 1}`,
    mountPath: `/data-${index + 1}`,
    readOnly: false,
    subPath: "",
    pvc: { claimName: "", createIfNotExists: true, deleteOnSandboxTermination: false, storageClass: { choice: "cluster-default", name: "" }, storage: "", accessModes: ["ReadWriteOnce"] },
  };
}

/** A blank text field means "not set"; the spec leaves the key out. */
const text = (value: string) => (value.trim() === "" ? undefined : value.trim());

/** The labels typed one KEY=VALUE per line; a later line wins over an earlier one with the same key. */
function labelsOf(typed: string): Record<string, string> | undefined {
  const lines = typed.split("\n").map((line) => line.trim()).filter(Boolean);
  if (lines.length === 0) return undefined;
  return Object.fromEntries(lines.map((line) => {
    const at = line.indexOf("=");
    return at === -1 ? [line, ""] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
  }));
}

/** Whole seconds as typed; anything else goes through as typed so the schema names the field. */
function seconds(value: string): number | string | undefined {
  const typed = text(value);
  if (typed === undefined) return undefined;
  return /^\d+$/.test(typed) ? Number(typed) : typed;
}

function quantities(list: { cpu: string; memory: string }) {
  const cpu = text(list.cpu);
  const memory = text(list.memory);
  return cpu === undefined && memory === undefined ? undefined : { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) };
}

function storageClassOf(field: StorageClassField): string | undefined {
  return storageClassNameFor(field.choice === "named" ? { kind: "named", name: field.name } : { kind: field.choice });
}

const ONLY_READ_WRITE_ONCE = (modes: AccessMode[]) => modes.length === 1 && modes[0] === "ReadWriteOnce";

function claimOf(values: CreateFormValues["workspace"]["claim"]) {
  const existing = values.ownership === "existing";
  const claim = pruned({
    ...(values.ownership === "template" ? {} : { ownership: values.ownership }),
    ...(values.ownership === "template" ? {} : { claimName: text(values.claimName) }),
    // Berth does not create an existing claim, so what it would be created with is not asked.
    ...(existing ? {} : { storageClassName: storageClassOf(values.storageClass), size: text(values.size) }),
    ...(existing || ONLY_READ_WRITE_ONCE(values.accessModes) ? {} : { accessModes: values.accessModes }),
  });
  return Object.keys(claim).length > 0 ? claim : undefined;
}

function volumeOf(volume: ExtraVolumeValues) {
  const creates = volume.pvc.createIfNotExists;
  return {
    name: volume.name.trim(),
    mountPath: volume.mountPath.trim(),
    readOnly: volume.readOnly,
    ...(text(volume.subPath) ? { subPath: text(volume.subPath) } : {}),
    pvc: {
      claimName: volume.pvc.claimName.trim(),
      createIfNotExists: creates,
      deleteOnSandboxTermination: volume.pvc.deleteOnSandboxTermination,
      ...(creates ? { storageClass: storageClassOf(volume.pvc.storageClass), storage: text(volume.pvc.storage) } : {}),
      ...(creates && !ONLY_READ_WRITE_ONCE(volume.pvc.accessModes) ? { accessModes: volume.pvc.accessModes } : {}),
    },
  };
}

/** Drops keys whose value is undefined, so the spec says only what the person chose. */
function pruned<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The sandbox spec the form describes; `gatewayBackend` decides whether the backend is worth sending. */
export function specFromForm(values: CreateFormValues, gatewayBackend: WorkspaceBackend): SandboxSpecInput {
  const command = values.command.split("\n").map((line) => line.trim()).filter(Boolean);
  const hook = text(values.disruptionPolicy.checkpointHook);
  const resources = { requests: quantities(values.resources.requests), limits: quantities(values.resources.limits) };
  const pvc = values.workspace.backend === "pvc";
  const policy = values.disruptionPolicy;
  return pruned({
    name: values.name.trim(),
    namespace: text(values.namespace),
    profile: values.profile,
    image: text(values.image),
    command: command.length > 0 ? command : undefined,
    labels: labelsOf(values.labels),
    env: values.env.filter((row) => !isBlank(row)).map(envVarOf),
    resources: resources.requests || resources.limits ? resources : undefined,
    workspace: {
      backend: values.workspace.backend === gatewayBackend ? undefined : values.workspace.backend,
      mountPath: text(values.workspace.mountPath),
      claim: pvc ? claimOf(values.workspace.claim) : undefined,
    },
    volumes: values.volumes.map(volumeOf),
    disruptionPolicy: {
      evictionProtection: policy.evictionProtection,
      terminationGracePeriodSeconds: seconds(policy.terminationGracePeriodSeconds),
      checkpointGracePeriodSeconds: seconds(policy.checkpointGracePeriodSeconds),
      checkpointFailurePolicy: policy.checkpointFailurePolicy,
      checkpointHook: hook ? ["sh", "-c", hook] : undefined,
      autoRecoverFailedPods: policy.autoRecoverFailedPods,
      snapshotOnCheckpoint: policy.snapshotOnCheckpoint,
    },
  } as SandboxSpecInput);
}

/** Spec paths whose form field has another name or holds the whole list. */
const RENAMED: [pattern: RegExp, field: (match: RegExpMatchArray) => string][] = [
  [/^command(\.\d+)?$/, () => "command"],
  // A label's problem names its key in the message; the form has one field for them all.
  [/^labels(\..+)?$/, () => "labels"],
  [/^disruptionPolicy\.checkpointHook(\.\d+)?$/, () => "disruptionPolicy.checkpointHook"],
  [/^workspace\.claim\.storageClassName$/, () => "workspace.claim.storageClass.name"],
  [/^volumes\.(\d+)\.pvc\.storageClass$/, (match) => `volumes.${match[1]}.pvc.storageClass.name`],
  [/^workspace\.claim\.accessModes\.\d+$/, () => "workspace.claim.accessModes"],
  [/^volumes\.(\d+)\.pvc\.accessModes\.\d+$/, (match) => `volumes.${match[1]}.pvc.accessModes`],
  [/^env\.(\d+)$/, (match) => `env.${match[1]}.name`],
  [/^env\.(\d+)\.valueFrom\.secretKeyRef\.name$/, (match) => `env.${match[1]}.secretName`],
  [/^env\.(\d+)\.valueFrom(\.secretKeyRef)?(\.key)?$/, (match) => `env.${match[1]}.secretKey`],
];

/** Every field the form has, as a pattern over its dotted name. */
const FIELDS = [
  /^(name|namespace|profile|image|command|labels)$/,
  /^env\.\d+\.(name|value|secretName|secretKey)$/,
  /^resources\.(requests|limits)\.(cpu|memory)$/,
  /^workspace\.(backend|mountPath)$/,
  /^workspace\.claim\.(ownership|claimName|size|accessModes|storageClass\.name)$/,
  /^volumes\.\d+\.(name|mountPath|readOnly|subPath)$/,
  /^volumes\.\d+\.pvc\.(claimName|createIfNotExists|deleteOnSandboxTermination|storage|accessModes|storageClass\.name)$/,
  /^disruptionPolicy\.(evictionProtection|terminationGracePeriodSeconds|checkpointGracePeriodSeconds|checkpointFailurePolicy|checkpointHook|autoRecoverFailedPods|snapshotOnCheckpoint)$/,
];

/**
 * The form field a problem belongs on, from the problem's spec path; the nearest field above it
 * when the path goes deeper than the form does; null when no field shows it (it goes above the
 * form instead).
 */
export function formFieldOf(path: ProblemPath): string | null {
  for (let length = path.length; length > 0; length--) {
    let dotted = path.slice(0, length).join(".");
    for (const [pattern, field] of RENAMED) {
      const match = dotted.match(pattern);
      if (match) {
        dotted = field(match);
        break;
      }
    }
    if (FIELDS.some((field) => field.test(dotted))) return dotted;
  }
  return null;
}

/** The other way: the form showing a spec already made (a template being edited), as the person would have typed it. */
export function formValuesOf(spec: SandboxSpec, gatewayBackend: WorkspaceBackend): CreateFormValues {
  const blank = initialFormValues(gatewayBackend);
  const claim = spec.workspace.claim;
  const policy = spec.disruptionPolicy;
  const hook = policy.checkpointHook;
  const classField = (name: string | undefined): StorageClassField => {
    const choice = storageClassChoice(name);
    return { choice: choice.kind, name: choice.kind === "named" ? choice.name : "" };
  };
  const typed = (value: number | string | undefined) => (value === undefined ? "" : String(value));
  return {
    ...blank,
    name: spec.name,
    namespace: spec.namespace ?? "",
    profile: spec.profile,
    image: spec.image ?? "",
    command: (spec.command ?? []).join("\n"),
    labels: Object.entries(spec.labels ?? {}).map(([key, value]) => `${key}=${value}`).join("\n"),
    env: spec.env.map((variable) =>
      variable.valueFrom
        ? { ...emptyEnvRow(), name: variable.name, source: "secretKey", secretName: variable.valueFrom.secretKeyRef.name, secretKey: variable.valueFrom.secretKeyRef.key }
        : { ...emptyEnvRow(), name: variable.name, source: variable.secret ? "secret" : "value", value: variable.value ?? "" },
    ),
    resources: {
      requests: { cpu: spec.resources?.requests?.cpu ?? "", memory: spec.resources?.requests?.memory ?? "" },
      limits: { cpu: spec.resources?.limits?.cpu ?? "", memory: spec.resources?.limits?.memory ?? "" },
    },
    workspace: {
      backend: spec.workspace.backend ?? gatewayBackend,
      mountPath: spec.workspace.mountPath ?? "",
      claim: {
        ownership: claim?.ownership ?? "template",
        claimName: claim?.claimName ?? "",
        storageClass: classField(claim?.storageClassName),
        size: claim?.size ?? "",
        accessModes: claim?.accessModes ?? ["ReadWriteOnce"],
      },
    },
    volumes: spec.volumes.map((volume) => ({
      name: volume.name,
      mountPath: volume.mountPath,
      readOnly: volume.readOnly,
      subPath: volume.subPath ?? "",
      pvc: {
        claimName: volume.pvc.claimName,
        createIfNotExists: volume.pvc.createIfNotExists,
        deleteOnSandboxTermination: volume.pvc.deleteOnSandboxTermination,
        storageClass: classField(volume.pvc.storageClass),
        storage: volume.pvc.storage ?? "",
        accessModes: volume.pvc.accessModes ?? ["ReadWriteOnce"],
      },
    })),
    disruptionPolicy: {
      evictionProtection: policy.evictionProtection,
      terminationGracePeriodSeconds: typed(policy.terminationGracePeriodSeconds),
      checkpointGracePeriodSeconds: typed(policy.checkpointGracePeriodSeconds),
      checkpointFailurePolicy: policy.checkpointFailurePolicy,
      checkpointHook: hook ? (hook[0] === "sh" && hook[1] === "-c" && hook.length === 3 ? hook[2]! : hook.join(" ")) : "",
      autoRecoverFailedPods: policy.autoRecoverFailedPods,
      snapshotOnCheckpoint: policy.snapshotOnCheckpoint,
    },
  };
}
