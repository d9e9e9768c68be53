import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Hono } from "hono";
import { CARD_FIELD_PATH } from "service-kit/card-field";

/** The field's page: its inputs, labelled as the shop's own form was, disabled until its script has filled them. */
const PAGE = readFileSync(new URL("../card-field/page.html", import.meta.url), "utf8");

/** It loads only its own script and styles, and sends the card only to its own origin, the provider's. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'";

/** The hosted card field, as Stripe Elements serves it; its script is bundled on first request. */
export function cardFieldRoutes() {
  const routes = new Hono();
  let script: Promise<string> | undefined;
  const bundle = async () => {
    const built = await build({
      entryPoints: [fileURLToPath(new URL("../card-field/frame.ts", import.meta.url))],
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2022",
      minify: true,
    });
    return built.outputFiles[0]!.text;
  };
  routes.get(CARD_FIELD_PATH, (c) => {
    c.header("Content-Security-Policy", PAGE_POLICY);
    return c.html(PAGE);
  });
  routes.get(`${CARD_FIELD_PATH}.js`, async (c) => {
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(await (script ??= bundle()));
  });
  return routes;
}
