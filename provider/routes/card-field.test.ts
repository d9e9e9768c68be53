import { expect, it } from "vitest";
import { CARD_FIELD_PATH } from "service-kit/card-field";
import { cardFieldRoutes } from "./card-field";

it("serves the card field's page, which loads only its own script and sends the card only to its own origin", async () => {
  const page = await cardFieldRoutes().request(CARD_FIELD_PATH);
  expect(page.status).toBe(200);
  const policy = page.headers.get("content-security-policy") ?? "";
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("connect-src 'self'");
  const html = await page.text();
  expect(html).toContain(`<script src="${CARD_FIELD_PATH}.js"></script>`);
  for (const label of ["Card number", "Expiry", "CVC"]) expect(html).toContain(`>${label}</label>`);
});

it("serves the field's script, bundled with what it imports, for a browser", async () => {
  const script = await cardFieldRoutes().request(`${CARD_FIELD_PATH}.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
  const code = await script.text();
  // No module syntax left for the browser to resolve: card-validator and the protocol are inside.
  expect(code).not.toMatch(/\b(import|require)\(/);
  expect(code).toContain("postMessage");
});
