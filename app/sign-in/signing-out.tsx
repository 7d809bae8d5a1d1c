"use client";

import { useEffect } from "react";

/** Ends the session once the console has been left (its sign-out button brings people here), then says so. */
export function SigningOut({ className }: { className?: string }) {
  useEffect(() => {
    void fetch("/auth/sign-out", { method: "POST", redirect: "manual" })
      .catch(() => {})
      .finally(() => window.location.replace("/sign-in?signedOut=1"));
  }, []);
  return (
    <p role="status" className={className}>
      Signing out…
    </p>
  );
}
