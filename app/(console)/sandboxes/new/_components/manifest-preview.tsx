"use client";

import * as Tabs from "@radix-ui/react-tabs";
import type { DryRunResult } from "@/lib/domain/dry-run.ts";
import { toYaml } from "@/lib/render/yaml.ts";
import styles from "./create-sandbox-form.module.css";

// The server's dry run: the exact objects a create would apply, each checked by the API server
// with dryRun=All, shown as YAML one tab per object.


interface Shown {
  key: string;
  title: string;
  /** Why a claim has no manifest of its own. */
  note?: string;
  object?: unknown;
}

function shownObjects({ manifests }: DryRunResult): Shown[] {
  return [
    { key: "sandbox", title: `Sandbox ${manifests.sandbox.metadata.name}`, object: manifests.sandbox },
    ...manifests.claims.map((claim) => ({
      key: `claim-${claim.name}`,
      title: `Claim ${claim.name}`,
      object: claim.manifest,
      note: claim.manifest ? undefined : `Not created: ${claim.ownership === "existing" ? "an existing claim, mounted as it is" : "the claim exists already and is mounted as it is"}.`,
    })),
    ...(manifests.podDisruptionBudget ? [{ key: "budget", title: `PodDisruptionBudget ${manifests.podDisruptionBudget.metadata.name}`, object: manifests.podDisruptionBudget }] : []),
    ...(manifests.secret ? [{ key: "secret", title: `Secret ${manifests.secret.metadata.name}`, object: manifests.secret }] : []),
  ];
}

export function ManifestPreview({ answer }: { answer: DryRunResult }) {
  const objects = shownObjects(answer);
  return (
    <section aria-labelledby="preview-heading" className={styles.preview}>
      <h2 id="preview-heading" className={styles.sectionTitle}>
        Manifests to apply
      </h2>
      <p className={styles.hint}>The Kubernetes API server accepted each of these in a dry run; nothing was created.</p>
      <Tabs.Root defaultValue={objects[0]!.key}>
        <Tabs.List aria-label="Manifests" className={styles.tabs}>
          {objects.map((shown) => (
            <Tabs.Trigger key={shown.key} value={shown.key} className={styles.tab}>
              {shown.title}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {objects.map((shown) => (
          <Tabs.Content key={shown.key} value={shown.key} className={styles.tabPanel}>
            {shown.object ? <pre className={styles.yaml}>{toYaml(shown.object)}</pre> : <p className={styles.hint}>{shown.note}</p>}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}
