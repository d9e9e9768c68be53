/** A rule that forbids modules matching `from` to import modules matching `to`, and why. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: "error", from, to });

/**
 * The module graph's rules, checked by `npm run check` (dependency-cruiser):
 * no cycles, a run-once core that stands on its own, a domain below the
 * transport, two services and shared packages that stay apart, and test
 * support that production code cannot reach.
 * @type {import("dependency-cruiser").IConfiguration}
 */
module.exports = {
  forbidden: [
    forbid(
      "no-cycles",
      "A cycle, type-only or not, means two modules are one concept split in two, or a missing leaf.",
      {},
      { circular: true },
    ),
    forbid(
      "core-stands-alone",
      "packages/run-once is a library, its tests included: no framework, no app code or test support, no generated Prisma client, no other package of this repository.",
      { path: "^packages/run-once/" },
      {
        path: [
          "@trpc",
          "^node_modules/next/",
          "^node_modules/react",
          "^(server|app|provider|testing)/",
          "^packages/(?!run-once/)",
          "zod",
        ],
      },
    ),
    forbid(
      "core-test-support-in-tests-only",
      "The core's test support (its own database client) is for its tests, never for the code it ships.",
      { path: "^packages/run-once/", pathNot: "(\\.test\\.ts$|^packages/run-once/test-support/)" },
      { path: "^packages/run-once/test-support/" },
    ),
    forbid(
      "domain-below-transport",
      "Payments, orders and the domain's errors know nothing of tRPC: routers parse with the domain's schemas, and server/trpc/error-mapping.ts maps its errors.",
      { path: "^server/((payments|orders)/|errors\\.ts$)" },
      { path: ["^server/trpc/", "@trpc"] },
    ),
    forbid(
      "nothing-below-the-routers-imports-them",
      "server/trpc is the transport on top of the shop: only what composes a process (server/api.ts, server/services.ts), the lab built on it, and tests reach into it; what it needs from below is handed to it.",
      {
        path: "^server/",
        pathNot: [
          "^server/(trpc|lab)/",
          "^server/(api|services|compose-lab)\\.ts$",
          "\\.test\\.ts$",
          "^server/cluster/",
        ],
      },
      { path: "^server/trpc/" },
    ),
    forbid(
      "lab-at-the-edges",
      "The fault lab builds on the shop from outside: nothing of the shop imports it but server/compose-lab.ts, the one place a process takes it in where LAB_ENABLED is on (the lab's own pages, app/_lab and app/source, are the lab's; tests may use it).",
      {
        path: "^(server|app)/",
        pathNot: ["^server/lab/", "^server/compose-lab\\.ts$", "^app/(_lab|source)/", "\\.test\\.ts$"],
      },
      { path: "^server/lab/" },
    ),
    forbid(
      "provider-apart-from-shop",
      "The payment provider is a service of its own: what it shares with the shop lives in packages/.",
      { path: "^provider/" },
      { path: "^(server|app)/" },
    ),
    forbid(
      "server-without-app",
      "The server does not reach into the browser's code; what both use lives in packages/. (Cluster tests drive the browser's client.)",
      { path: "^server/", pathNot: "\\.test\\.ts$" },
      { path: "^app/" },
    ),
    forbid(
      "shared-packages-stand-alone",
      "What the services (or the server and the browser) share knows none of them. (Tests may run on the shop's client.)",
      { path: "^packages/(service-kit|retry-policy)/", pathNot: "\\.test\\.ts$" },
      { path: "^(server|app|provider)/" },
    ),
    forbid(
      "no-test-support-in-production",
      "Test support lives in testing/, out of reach of the code that ships.",
      { path: "^(app|server|packages|prisma)/", pathNot: "\\.test\\.ts$" },
      { path: "^testing/" },
    ),
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
