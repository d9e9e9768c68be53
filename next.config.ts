import type { NextConfig } from "next";

/**
 * What a page may load and who may frame it. Everything the shop loads comes
 * from its own origin. Scripts and styles also need 'unsafe-inline': the pages
 * are prerendered, and Next's inline bootstrap scripts could only carry a
 * per-request nonce on pages rendered per request. In development React also
 * evaluates code for its error overlay ('unsafe-eval').
 * @see https://nextjs.org/docs/app/guides/content-security-policy#without-nonces
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  // No other site may frame the shop and trick a click on Pay (clickjacking).
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
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
