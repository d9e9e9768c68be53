import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and wasm-backed packages load from node_modules at run time
  // instead of being bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pino"],
  poweredByHeader: false,
};

export default nextConfig;
