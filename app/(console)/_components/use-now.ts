"use client";

import { useEffect, useState } from "react";

/**
 * The current time, ticking every `everyMs`. The first render uses the server's moment, so the
 * HTML the server sent and the browser's first render agree (no hydration mismatch on "45s" vs
 * "46s").
 */
export function useNow(startAt: number, everyMs: number): Date {
  const [now, setNow] = useState(() => new Date(startAt));
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
