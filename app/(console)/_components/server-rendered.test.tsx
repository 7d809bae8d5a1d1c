// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, expect, test } from "vitest";
import { useServerRenderedQuery } from "./server-rendered.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const KEY = ["sandbox", "phase"];

function Phase({ rendered }: { rendered: string }) {
  const { data } = useServerRenderedQuery({ queryKey: KEY, queryFn: () => Promise.resolve({ phase: "Disrupted" }) }, { phase: rendered });
  return <p>{data.phase}</p>;
}

const page = (client: QueryClient) => (
  <QueryClientProvider client={client}>
    <Phase rendered="Ready" />
  </QueryClientProvider>
);

/**
 * The server's HTML, hydrated with a cache that already holds newer data: what a push from the
 * event stream leaves when it lands while React hydrates the page.
 */
async function hydrateAfterAPush(): Promise<{ container: HTMLElement; mismatches: unknown[] }> {
  const container = document.createElement("div");
  container.innerHTML = renderToString(page(new QueryClient()));
  document.body.append(container);
  const client = new QueryClient();
  client.setQueryData(KEY, { phase: "Disrupted" });
  const mismatches: unknown[] = [];
  await act(async () => {
    hydrateRoot(container, page(client), { onRecoverableError: (error) => mismatches.push(error) });
  });
  return { container, mismatches };
}

afterEach(() => {
  document.body.innerHTML = "";
});

test("hydration renders what the server rendered, though the cache changed meanwhile", async () => {
  const { mismatches } = await hydrateAfterAPush();
  expect(mismatches).toEqual([]);
});

test("once hydrated, the part shows the cache's newer data", async () => {
  const { container } = await hydrateAfterAPush();
  expect(container.textContent).toBe("Disrupted");
});
