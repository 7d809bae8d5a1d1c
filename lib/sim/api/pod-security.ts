import type { KubeObject, StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";

// The PodSecurity admission plugin (k8s.io/pod-security-admission), as an API server runs it by
// default: a namespace labelled `pod-security.kubernetes.io/enforce: baseline|restricted` refuses
// a pod that breaks that level of the Pod Security Standards, in the plugin's own words. The
// checks are those of the standards' current version; the ones the simulated workloads can
// trip are all here (a pod's sysctls, AppArmor and SELinux options are not checked).

type Level = "privileged" | "baseline" | "restricted";
type Record_ = Record<string, unknown>;

const ENFORCE_LABEL = "pod-security.kubernetes.io/enforce";
const RESTRICTED_VOLUME_TYPES = new Set(["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"]);
const BASELINE_CAPABILITIES = new Set(["AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT"]);

const record = (value: unknown): Record_ => (typeof value === "object" && value !== null ? (value as Record_) : {});
const list = (value: unknown): Record_[] => (Array.isArray(value) ? value.map(record) : []);
const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(", ");
const containersWord = (names: string[]) => `${names.length === 1 ? "container" : "containers"} ${quoted(names)}`;

/** The level a namespace enforces; unlabelled is privileged (everything is allowed). */
export function enforcedLevel(namespace: StoredObject | undefined): Level {
  const value = namespace?.metadata.labels?.[ENFORCE_LABEL];
  return value === "baseline" || value === "restricted" ? value : "privileged";
}

interface Named {
  name: string;
  securityContext: Record_;
}

function baselineViolations(spec: Record_, containers: Named[]): string[] {
  const violations: string[] = [];
  const hostNamespaces = (["hostNetwork", "hostPID", "hostIPC"] as const).filter((key) => spec[key] === true);
  if (hostNamespaces.length > 0) violations.push(`host namespaces (${hostNamespaces.map((key) => `${key}=true`).join(", ")})`);
  const privileged = containers.filter((one) => one.securityContext.privileged === true).map((one) => one.name);
  if (privileged.length > 0) violations.push(`privileged (${containersWord(privileged)} must not set securityContext.privileged=true)`);
  const added = containers.filter((one) => ((record(one.securityContext.capabilities).add as string[] | undefined) ?? []).some((capability) => !BASELINE_CAPABILITIES.has(capability))).map((one) => one.name);
  if (added.length > 0) violations.push(`non-default capabilities (${containersWord(added)} must not include capabilities beyond the default set in securityContext.capabilities.add)`);
  const hostPaths = list(spec.volumes).filter((volume) => volume.hostPath !== undefined).map((volume) => String(volume.name));
  if (hostPaths.length > 0) violations.push(`hostPath volumes (${hostPaths.length === 1 ? "volume" : "volumes"} ${quoted(hostPaths)})`);
  return violations;
}

function restrictedViolations(spec: Record_, containers: Named[], podContext: Record_): string[] {
  const violations: string[] = [];
  const escalating = containers.filter((one) => one.securityContext.allowPrivilegeEscalation !== false).map((one) => one.name);
  if (escalating.length > 0) violations.push(`allowPrivilegeEscalation != false (${containersWord(escalating)} must set securityContext.allowPrivilegeEscalation=false)`);
  const capable = containers.filter((one) => !((record(one.securityContext.capabilities).drop as string[] | undefined) ?? []).includes("ALL")).map((one) => one.name);
  if (capable.length > 0) violations.push(`unrestricted capabilities (${containersWord(capable)} must set securityContext.capabilities.drop=["ALL"])`);
  const volumes = list(spec.volumes).filter((volume) => !Object.keys(volume).some((key) => RESTRICTED_VOLUME_TYPES.has(key))).map((volume) => String(volume.name));
  if (volumes.length > 0) violations.push(`restricted volume types (${volumes.length === 1 ? "volume" : "volumes"} ${quoted(volumes)} must use an allowed volume type)`);
  const podNonRoot = podContext.runAsNonRoot === true;
  const rootable = containers.filter((one) => one.securityContext.runAsNonRoot !== true && !(podNonRoot && one.securityContext.runAsNonRoot === undefined)).map((one) => one.name);
  if (rootable.length > 0) violations.push(`runAsNonRoot != true (pod or ${containersWord(rootable)} must set securityContext.runAsNonRoot=true)`);
  const asRoot = containers.filter((one) => one.securityContext.runAsUser === 0).map((one) => one.name);
  if (podContext.runAsUser === 0 || asRoot.length > 0) violations.push(`runAsUser=0 (${podContext.runAsUser === 0 ? "pod" : containersWord(asRoot)} must not set runAsUser=0)`);
  const seccomp = (context: Record_) => record(context.seccompProfile).type;
  const allowedSeccomp = (type: unknown) => type === "RuntimeDefault" || type === "Localhost";
  const podSeccomp = seccomp(podContext);
  const unconfined = containers.filter((one) => {
    const own = seccomp(one.securityContext);
    return own === undefined ? !allowedSeccomp(podSeccomp) : !allowedSeccomp(own);
  }).map((one) => one.name);
  if (unconfined.length > 0) violations.push(`seccompProfile (pod or ${containersWord(unconfined)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`);
  return violations;
}

/** Refuses a pod its namespace's enforced level does not allow, as the PodSecurity plugin does. */
export function admitPodSecurity(pod: KubeObject, namespace: StoredObject | undefined): void {
  const level = enforcedLevel(namespace);
  if (level === "privileged") return;
  const spec = record(pod.spec);
  const podContext = record(spec.securityContext);
  const containers = [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)].map((container) => ({ name: String(container.name), securityContext: record(container.securityContext) }));
  const violations = [...baselineViolations(spec, containers), ...(level === "restricted" ? restrictedViolations(spec, containers, podContext) : [])];
  if (violations.length === 0) return;
  const name = pod.metadata.name ?? pod.metadata.generateName ?? "";
  throw StatusError.of(403, "Forbidden", `pods "${name}" is forbidden: violates PodSecurity "${level}:latest": ${violations.join(", ")}`, { name, kind: "pods" });
}
