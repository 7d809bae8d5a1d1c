"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef } from "react";
import { api } from "@/app/(console)/_components/api-client.ts";
import { useServerRenderedQuery } from "@/app/(console)/_components/server-rendered.ts";
import { isFilling, type TemplateView } from "@/lib/domain/template-view.ts";

// The templates a person may see, shared by the Templates page and the Sandboxes page's pools:
// polled while a pool fills or drains (pools move on their controller's time, not through
// Berth's event stream), and for a while after a change made here.

const POLL_MS = 2_000;
const AFTER_ACTION_MS = 30_000;

export function useTemplates(initialTemplates: TemplateView[]) {
  const queryClient = useQueryClient();
  const pollUntil = useRef(0);
  const { data: templates, error } = useServerRenderedQuery(
    {
      queryKey: ["templates"],
      queryFn: ({ signal }) => api.listTemplates({ signal }).then((answer) => answer.items),
      refetchInterval: (query) => (query.state.data?.some(isFilling) || Date.now() < pollUntil.current ? POLL_MS : false),
    },
    initialTemplates,
  );
  /** After a change here: look again now, and keep looking while the controller acts on it. */
  const onChanged = useCallback(() => {
    pollUntil.current = Date.now() + AFTER_ACTION_MS;
    void queryClient.invalidateQueries({ queryKey: ["templates"] });
  }, [queryClient]);
  return { templates, error, onChanged };
}
