"use client";

import { useState } from "react";
import styles from "./signed-in-person.module.css";
import { useViewer } from "./viewer-context.tsx";

const METHOD: Record<string, string> = { oidc: "OpenID", token: "Kubernetes token", proxy: "authenticating proxy", none: "no sign-in (Berth's own identity)" };

/** The header's who-is-signed-in: name, role and groups, and sign-out. */
export function SignedInPerson() {
  const you = useViewer();
  const [leaving, setLeaving] = useState(false);
  const groups = you.person.groups.filter((group) => group !== "system:authenticated");
  // The console is left first, and the sign-in page ends the session: nothing on this page (the
  // event stream, a refetch) can ask the API once more after the session is gone.
  function signOut() {
    setLeaving(true);
    window.location.assign("/sign-in?signingOut=1");
  }
  return (
    <div className={styles.person}>
      <div className={styles.who} title={`Signed in with ${METHOD[you.signedInWith] ?? you.signedInWith}. Groups: ${groups.join(", ") || "none"}`}>
        <span className={styles.name} data-testid="signed-in-user">{you.person.username}</span>
        <span className={styles.role}>{you.role ?? "no Berth role"}</span>
        <span className="visually-hidden">. Groups: {groups.join(", ") || "none"}</span>
      </div>
      {you.signedInWith === "none" ? null : (
        <button type="button" className={styles.signOut} onClick={signOut} disabled={leaving}>
          {leaving ? "Signing out…" : "Sign out"}
        </button>
      )}
    </div>
  );
}
