"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ApiProblem } from "@/app/(console)/_components/api-client.ts";
import { useMayIn } from "@/app/(console)/_components/viewer-context.tsx";
import { Section } from "@/app/(console)/sandboxes/[id]/_components/section.tsx";
import buttons from "@/app/components/buttons.module.css";
import tableStyles from "@/app/components/data-table.module.css";
import { formatBytes, formatTimestamp } from "@/app/components/format.ts";
import { MAX_DOWNLOAD_BYTES, MAX_LISTED_ENTRIES, pathSegments, type VolumeFile, type VolumeReader } from "@/lib/domain/volume-files.ts";
import styles from "./claim-files.module.css";

// A read-only browser of what a claim holds: directories to open, files to download (up to the
// size Berth hands out), through the pod that mounts the claim or — asked for with a button,
// because it starts a pod as the person — a short-lived helper pod. Names are shown in their safe
// form; React writes them as text whatever they hold.

const contentHref = (namespace: string, claim: string, path: string) => `/api/v1/volumes/${encodeURIComponent(namespace)}/${encodeURIComponent(claim)}/files/content?${new URLSearchParams({ path })}`;

function readerText(reader: VolumeReader): string {
  if (reader.kind === "mounting-pod") return `Read through pod ${reader.pod} (container ${reader.container}), which mounts the claim at ${reader.mountPath}${reader.subPath ? ` (sub-path ${reader.subPath}: only that part of the claim is seen)` : ""}.`;
  return `Read through helper pod ${reader.pod}, which mounts the claim read-only; it is removed after ${formatTimestamp(new Date(reader.expiresAt))}.`;
}

/**
 * `mounted`: a pod mounts the claim, as the page was rendered; the files are read through it at
 * once. Otherwise nothing is asked until the person starts a helper.
 */
export function ClaimFiles({ namespace, claim, mounted }: { namespace: string; claim: string; mounted: boolean }) {
  const mayRead = useMayIn("execInPods", namespace);
  const queryClient = useQueryClient();
  const [path, setPath] = useState("/");
  const [readerAsked, setReaderAsked] = useState(mounted);
  const key = ["volume-files", namespace, claim, path];
  const listing = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.listVolumeFiles({ params: { namespace, name: claim }, query: { path }, signal }),
    enabled: mayRead.allowed && readerAsked,
    retry: false,
  });
  const start = useMutation({
    mutationFn: () => api.startVolumeReader({ params: { namespace, name: claim } }),
    onSuccess: () => {
      setReaderAsked(true);
      void queryClient.invalidateQueries({ queryKey: ["volume-files", namespace, claim] });
    },
  });

  if (!mayRead.allowed) {
    return (
      <Section title="Files">
        <p>Reading a claim&apos;s files runs a command in a pod that mounts it, which you may not do in {namespace}. {mayRead.reason}</p>
      </Section>
    );
  }
  const problem = listing.error ? ApiProblem.from(listing.error, "The files could not be listed") : null;
  const startProblem = start.error ? ApiProblem.from(start.error, "The helper pod could not be started") : null;
  return (
    <Section title="Files">
      <Breadcrumbs claim={claim} path={path} onOpen={setPath} />
      {!readerAsked || problem?.code === "reader-needed" ? (
        <div className={styles.notice}>
          <p>No running pod mounts this claim. Berth can start a helper pod in {namespace}, as you, that mounts it read-only for 5 minutes and is then removed.</p>
          <button type="button" className={buttons.primary} disabled={start.isPending} onClick={() => start.mutate()}>
            {start.isPending ? "Starting a helper pod…" : "Browse files"}
          </button>
          {startProblem ? <p role="alert">{startProblem.detail}</p> : null}
        </div>
      ) : problem ? (
        <p role="alert">{problem.detail}</p>
      ) : listing.isPending ? (
        <p>Reading {path}…</p>
      ) : listing.data ? (
        <>
          <p className={styles.reader}>{readerText(listing.data.reader)}</p>
          <FileTable namespace={namespace} claim={claim} entries={listing.data.entries} onOpen={setPath} />
          {listing.data.truncated ? <p>Only the first {MAX_LISTED_ENTRIES} entries are listed.</p> : null}
        </>
      ) : null}
    </Section>
  );
}

function Breadcrumbs({ claim, path, onOpen }: { claim: string; path: string; onOpen: (path: string) => void }) {
  const segments = pathSegments(path);
  return (
    <nav aria-label="Folder" className={styles.crumbs}>
      <button type="button" className={styles.link} onClick={() => onOpen("/")} aria-current={segments.length === 0 ? "location" : undefined}>
        {claim}
      </button>
      {segments.map((segment, index) => (
        <span key={index}>
          {" / "}
          <button type="button" className={styles.link} onClick={() => onOpen(`/${segments.slice(0, index + 1).join("/")}`)} aria-current={index === segments.length - 1 ? "location" : undefined}>
            {segment}
          </button>
        </span>
      ))}
    </nav>
  );
}

function FileTable({ namespace, claim, entries, onOpen }: { namespace: string; claim: string; entries: VolumeFile[]; onOpen: (path: string) => void }) {
  if (entries.length === 0) return <p>This folder is empty.</p>;
  return (
    <div className={tableStyles.frame} role="region" aria-label={`Files of ${claim}`} tabIndex={0}>
      <table className={tableStyles.table}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className={tableStyles.numeric}>Size</th>
            <th scope="col">Modified</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.displayName}>
              <th scope="row" className={tableStyles.mono}>
                <EntryName namespace={namespace} claim={claim} entry={entry} onOpen={onOpen} />
              </th>
              <td className={tableStyles.numeric}>{entry.kind === "file" ? formatBytes(entry.sizeBytes) : "—"}</td>
              <td>{formatTimestamp(new Date(entry.modifiedAt))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EntryName({ namespace, claim, entry, onOpen }: { namespace: string; claim: string; entry: VolumeFile; onOpen: (path: string) => void }) {
  if (entry.path === null) return <span title="The name is not UTF-8: it is shown with escapes, and cannot be opened here">{entry.displayName}</span>;
  const path = entry.path;
  if (entry.kind === "directory") {
    return (
      <button type="button" className={styles.link} onClick={() => onOpen(path)}>
        {entry.displayName}/
      </button>
    );
  }
  if (entry.kind === "file" && entry.sizeBytes <= MAX_DOWNLOAD_BYTES) {
    return (
      <a href={contentHref(namespace, claim, path)} download aria-label={`Download ${entry.displayName}`}>
        {entry.displayName}
      </a>
    );
  }
  const why = entry.kind === "symlink" ? "a symbolic link: Berth does not follow links" : entry.kind === "file" ? `larger than the ${formatBytes(MAX_DOWNLOAD_BYTES)} Berth hands out` : "not a regular file";
  return <span title={why}>{entry.displayName}{entry.kind === "symlink" ? " →" : ""}</span>;
}
