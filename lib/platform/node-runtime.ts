/**
 * The oldest Node.js Berth runs on. Node.js 20 went out of support in April 2026; 22.12 is the
 * first 22 LTS that every library Berth depends on accepts (their `engines` ask for it).
 * package.json pins the `node` package at a 22 LTS, so `npm start` and `npm test` run on it
 * whatever the machine's own Node.js is; this check catches a server started another way.
 */
export const minimumNodeVersion = { major: 22, minor: 12 } as const;

/** Why this Node.js cannot run Berth, or undefined when it can. `version` as `process.version`. */
export function unsupportedNodeRuntime(version: string): string | undefined {
  const match = /^v?(\d+)\.(\d+)\.\d+/.exec(version);
  const wanted = `${minimumNodeVersion.major}.${minimumNodeVersion.minor}`;
  if (!match) return `Berth needs Node.js ${wanted} or later, and could not read this one's version (${version}).`;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const supported = major > minimumNodeVersion.major || (major === minimumNodeVersion.major && minor >= minimumNodeVersion.minor);
  if (supported) return undefined;
  return `Berth needs Node.js ${wanted} or later; this is ${version}. Start it with \`npm start\` (which runs the Node.js that \`npm install\` put in node_modules) or install Node.js 22 LTS.`;
}
