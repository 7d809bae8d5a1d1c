import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has taken over this part of the page, true after.
 * Forms stay disabled until then: a click or keystroke before hydration would be lost, or submit
 * the form the browser's way.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
