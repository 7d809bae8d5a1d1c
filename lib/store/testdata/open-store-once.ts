// Run by the embedded-store lock tests as a second process: opens the embedded store in argv[2],
// reports, and closes it again; with argv[3] "hold", keeps it open until killed.
import { openStore } from "../open-store.ts";

try {
  const store = await openStore({ kind: "pglite", dataDir: process.argv[2]! });
  console.log("opened");
  if (process.argv[3] === "hold") setInterval(() => {}, 1 << 30);
  else await store.close();
} catch (error) {
  console.error((error as Error).message);
  process.exit(3);
}
