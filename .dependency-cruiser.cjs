/**
 * The module graph's rules, checked by `npm run check` (dependency-cruiser):
 * no cycles, a run-once core that stands on its own, a domain below the
 * transport, two services and shared packages that stay apart, and test
 * support that production code cannot reach.
 * @type {import("dependency-cruiser").IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment:
        "A cycle, type-only or not, means two modules are one concept split in two, or a missing leaf.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-stands-alone",
      comment:
        "packages/run-once is a library, its tests included: no framework, no app code or test support, no generated Prisma client, no other package of this repository.",
      severity: "error",
      from: { path: "^packages/run-once/" },
      to: {
        path: [
          "@trpc",
          "^node_modules/next/",
          "^node_modules/react",
          "^(server|app|provider|testing)/",
          "^packages/(?!run-once/)",
          "zod",
        ],
      },
    },
    {
      name: "core-test-support-in-tests-only",
      comment:
        "The core's test support (its own database client) is for its tests, never for the code it ships.",
      severity: "error",
      from: { path: "^packages/run-once/", pathNot: "(\\.test\\.ts$|^packages/run-once/test-support/)" },
      to: { path: "^packages/run-once/test-support/" },
    },
    {
      name: "domain-below-transport",
      comment:
        "Payments, orders and the domain's errors know nothing of tRPC: routers parse with the domain's schemas, and server/trpc/error-mapping.ts maps its errors.",
      severity: "error",
      from: { path: "^server/((payments|orders)/|errors\\.ts$)" },
      to: { path: ["^server/trpc/", "@trpc"] },
    },
    {
      name: "provider-apart-from-shop",
      comment:
        "The payment provider is a service of its own: what it shares with the shop lives in packages/.",
      severity: "error",
      from: { path: "^provider/" },
      to: { path: "^(server|app)/" },
    },
    {
      name: "server-without-app",
      comment:
        "The server does not reach into the browser's code; what both use lives in packages/. (Cluster tests drive the browser's client.)",
      severity: "error",
      from: { path: "^server/", pathNot: "\\.test\\.ts$" },
      to: { path: "^app/" },
    },
    {
      name: "shared-packages-stand-alone",
      comment:
        "What the services (or the server and the browser) share knows none of them. (Tests may run on the shop's client.)",
      severity: "error",
      from: { path: "^packages/(service-kit|retry-policy)/", pathNot: "\\.test\\.ts$" },
      to: { path: "^(server|app|provider)/" },
    },
    {
      name: "no-test-support-in-production",
      comment: "Test support lives in testing/, out of reach of the code that ships.",
      severity: "error",
      from: { path: "^(app|server|packages|prisma)/", pathNot: "\\.test\\.ts$" },
      to: { path: "^testing/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(\\.next|server/db/generated|provider/db/generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
