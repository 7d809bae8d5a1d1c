/**
 * A query's first data, as the server rendered the page with it. The page is shown from it at
 * once, and fetched again as soon as it mounts: an event that changed it while the page was on
 * its way (after the server read it, before the query existed to be marked stale) would
 * otherwise go unseen until the next event or until the data went stale by age.
 */
export function serverRendered<T>(data: T): { initialData: T; initialDataUpdatedAt: number } {
  return { initialData: data, initialDataUpdatedAt: 0 };
}
