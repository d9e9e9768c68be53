import type { NextConfig } from "next";

/** The hardening headers that never change; the Content-Security-Policy names the provider, so proxy.ts sets it per request. */
const securityHeaders = [
  // frame-ancestors' predecessor, for browsers that ignore CSP.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Order pages carry order ids in their path: no other site learns them.
  { key: "Referrer-Policy", value: "same-origin" },
];

const nextConfig: NextConfig = {
  // Native and wasm-backed packages load from node_modules at run time
  // instead of being bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pino"],
  // The workspace packages ship TypeScript.
  transpilePackages: ["retry-policy", "run-once", "service-kit"],
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
