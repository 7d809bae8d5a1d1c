"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

/** One react-query cache per browser tab: the server state every console page reads. */
export function QueryProvider({ children }: { children: ReactNode }) {
  // Live updates come from the event stream, so a focus or a remount need not refetch.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
