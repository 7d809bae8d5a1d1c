// Next.js calls register() once when a server process starts. The Node-only start-up lives in
// lib/server/start-server.ts, imported only on the Node runtime so the Edge bundle never sees it.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./lib/server/start-server.ts");
    await startServer();
  }
}
