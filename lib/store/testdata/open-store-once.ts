// Run by data-dir-lock.test.ts as a second process: opens the embedded store in argv[2],
// reports, and closes it again.
import { openStore } from "../open-store.ts";

try {
  const store = await openStore({ kind: "pglite", dataDir: process.argv[2]! });
  console.log("opened");
  await store.close();
} catch (error) {
  console.error((error as Error).message);
  process.exit(3);
}
