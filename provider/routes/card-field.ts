import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Hono } from "hono";
import { CARD_FIELD_PATH } from "service-kit/card-field";

/** The field's page: its inputs, labelled as the shop's own form was, disabled until its script has filled them. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card details</title>
<style>
:root { color-scheme: light dark; --text: #1b1f2a; --muted: #545c6f; --border: #dde1ea; --surface: #fff; --error: #b4232c; --accent: #3b4fd8; }
@media (prefers-color-scheme: dark) { :root { --text: #e7e9f0; --muted: #a9b0c2; --border: #2d3549; --surface: #171c2c; --error: #ff9aa0; --accent: #93a3ff; } }
* { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; color: var(--text); background: var(--surface); }
body { margin: 0; padding: 2px; }
.field { display: grid; gap: 0.25rem; margin-bottom: 0.6rem; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
label { font-weight: 600; font-size: 0.9rem; }
input { width: 100%; font: inherit; color: inherit; background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: 0.5rem 0.6rem; }
input:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
input[aria-invalid="true"] { border-color: var(--error); }
.with-brand { position: relative; }
.with-brand input { padding-right: 6.5rem; }
#brand { position: absolute; right: 0.6rem; top: 50%; transform: translateY(-50%); font-size: 0.85rem; color: var(--muted); }
.error { margin: 0; font-size: 0.85rem; color: var(--error); }
</style>
</head>
<body>
<p id="untrusted" class="error" hidden>This card field works only inside the page of the shop that framed it.</p>
<div class="field">
  <label for="number">Card number</label>
  <div class="with-brand">
    <input disabled id="number" name="number" inputmode="numeric" autocomplete="cc-number" aria-describedby="number-error">
    <span id="brand" data-testid="card-brand" aria-live="polite"></span>
  </div>
  <p id="number-error" class="error" hidden></p>
</div>
<div class="row">
  <div class="field">
    <label for="expiry">Expiry</label>
    <input disabled id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" aria-describedby="expiry-error">
    <p id="expiry-error" class="error" hidden></p>
  </div>
  <div class="field">
    <label for="cvc" id="cvc-label">CVC</label>
    <input disabled id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" aria-describedby="cvc-error">
    <p id="cvc-error" class="error" hidden></p>
  </div>
</div>
<script src="${CARD_FIELD_PATH}.js"></script>
</body>
</html>
`;

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
