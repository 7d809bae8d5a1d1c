/**
 * `task` run on demand, one run at a time: a call while it runs asks for one more run after it,
 * however many calls came in — as a controller's work queue collapses repeated keys. Until
 * `start()`, calls are only remembered.
 */
export function coalesced(task: () => Promise<void>, onError: (error: unknown) => void): { request(): void; start(): void } {
  let started = false;
  let running = false;
  let again = false;
  const request = () => {
    if (!started || running) {
      again = true;
      return;
    }
    running = true;
    task()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          request();
        }
      });
  };
  return {
    request,
    start() {
      started = true;
      if (again) {
        again = false;
        request();
      }
    },
  };
}
