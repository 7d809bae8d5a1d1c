// Run by start-server.test.ts as a server process: calls instrumentation's register() the way
// Next.js does when a Node.js server starts, so the test sees what `npm start` would, without a
// build. Should the start succeed, it stops the way a server is stopped (SIGTERM), so a test
// that expected a refusal fails on the exit code instead of hanging.
import { register } from "../../../instrumentation.ts";

process.env.NEXT_RUNTIME = "nodejs";
await register();
console.log("started");
process.kill(process.pid, "SIGTERM");
