import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and WebAssembly database drivers must be loaded by Node, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "@kubernetes/client-node", "ws"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
