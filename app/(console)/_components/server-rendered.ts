import { useQuery, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { useHydrated } from "./use-hydrated.ts";

/**
 * A query's first data, as the server rendered the page with it. The page is shown from it at
 * once, and fetched again as soon as it mounts: an event that changed it while the page was on
 * its way (after the server read it, before the query existed to be marked stale) would
 * otherwise go unseen until the next event or until the data went stale by age.
 */
export function serverRendered<T>(data: T): { initialData: T; initialDataUpdatedAt: number } {
  return { initialData: data, initialDataUpdatedAt: 0 };
}

type ServerRenderedQueryOptions<T extends object> = Omit<UseQueryOptions<T, Error, T, QueryKey>, "initialData" | "initialDataUpdatedAt">;

/**
 * A query the server rendered the page with (`rendered`, see `serverRendered`). Its data is what
 * the server rendered while React hydrates the page, and the query's from then on. The query
 * exists from hydration's first render, so a push from the event stream can change it before
 * hydration is done (React pauses and restarts hydration for the stream's own state changes);
 * rendering that would differ from the server's HTML, which React refuses (error 418) and
 * renders the whole part again.
 */
export function useServerRenderedQuery<T extends object>(options: ServerRenderedQueryOptions<T>, rendered: T): { data: T; error: Error | null } {
  const { data, error } = useQuery({ ...options, ...serverRendered(rendered) });
  const hydrated = useHydrated();
  // Never undefined with initial data; the types cannot tell that through the spread options.
  return { data: hydrated && data !== undefined ? data : rendered, error };
}
