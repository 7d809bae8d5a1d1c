"use client";

import { useEffect } from "react";
import { AlertIcon } from "@/app/components/icons.tsx";
import styles from "./error.module.css";

/** A page failed on the server (most often: the store could not be opened). Say so and offer a retry. */
export default function ConsoleError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  const digest =
    typeof error === "object" && error !== null && "digest" in error && typeof error.digest === "string"
      ? error.digest
      : undefined;

  return (
    <div className={styles.error} role="alert">
      <div className={styles.icon} aria-hidden="true">
        <AlertIcon />
      </div>
      <h1 className={styles.title}>This page could not be loaded</h1>
      <p className={styles.body}>
        Berth could not read what this page shows. The server log has the details
        {digest ? (
          <>
            {" "}
            under the reference <code>{digest}</code>
          </>
        ) : null}
        . If the store could not be opened, check that no other Berth server is using the same data directory.
      </p>
      <button type="button" className={styles.button} onClick={() => retry()}>
        Try again
      </button>
    </div>
  );
}
