import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastCheckSettings } from "./test-support/fast-check-settings";
import { fingerprint } from "./fingerprint";
import type { Json } from "./types";

/** The same value with the keys of every object in another order, picked by `order`. */
function reorderKeys(value: Json, order: (keys: string[]) => string[]): Json {
  if (Array.isArray(value)) return value.map((item) => reorderKeys(item, order));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    order(Object.keys(value)).map((key) => [key, reorderKeys(value[key] as Json, order)]),
  );
}

/** Every leaf of a value, by path. */
function leaves(value: Json, path: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, [...path, index]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  }
  return [path];
}

/** The value with the leaf at `path` changed into one whose JSON differs. */
function changeLeaf(value: Json, path: Array<string | number>): Json {
  if (path.length === 0) {
    if (value === null) return 0;
    if (typeof value === "boolean") return !value;
    if (typeof value === "number") return value === 0 ? 1 : value * 2 + 1;
    return `${String(value)}~`;
  }
  const [head, ...rest] = path;
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? changeLeaf(item, rest) : item));
  const record = value as Record<string, Json>;
  return { ...record, [head as string]: changeLeaf(record[head as string] as Json, rest) };
}

// Finite numbers only: JSON has no NaN or Infinity, and -0 is written as 0.
const json = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.parse(JSON.stringify(value)) as Json);

describe("the canonical fingerprint", () => {
  it("is the same for inputs that differ only in key order, at every depth", () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        const shuffle = (keys: string[]) =>
          keys
            .map((key, index) => ({ key, rank: Math.sin(seed + index * 7919) }))
            .sort((a, b) => a.rank - b.rank)
            .map(({ key }) => key);
        expect(fingerprint("payments.charge", reorderKeys(value, shuffle))).toBe(
          fingerprint("payments.charge", value),
        );
        expect(
          fingerprint(
            "payments.charge",
            reorderKeys(value, (keys) => [...keys].reverse()),
          ),
        ).toBe(fingerprint("payments.charge", value));
      }),
      fastCheckSettings(300),
    );
  });

  it("changes when any value changes", () => {
    fc.assert(
      fc.property(
        json
          .filter((value) => leaves(value).length > 0)
          .chain((value) => fc.tuple(fc.constant(value), fc.constantFrom(...leaves(value)))),
        ([value, path]) => {
          expect(fingerprint("payments.charge", changeLeaf(value, path))).not.toBe(
            fingerprint("payments.charge", value),
          );
        },
      ),
      fastCheckSettings(300),
    );
  });

  it("changes with the procedure", () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(fingerprint("orders.place", value)).not.toBe(fingerprint("payments.charge", value));
      }),
      fastCheckSettings(100),
    );
  });

  it("is keyed by a secret when one is given: without it, a stored fingerprint tells nothing of the input", () => {
    const card = { orderId: "ord_1", cardNumber: "4242424242424242" };
    const keyed = fingerprint("payments.charge", card, "server-secret-1234");
    expect(keyed).not.toBe(fingerprint("payments.charge", card));
    expect(keyed).not.toBe(fingerprint("payments.charge", card, "another-secret-123"));
    expect(keyed).toBe(
      fingerprint(
        "payments.charge",
        { cardNumber: "4242424242424242", orderId: "ord_1" },
        "server-secret-1234",
      ),
    );
  });

  it("is stable across runs and machines", () => {
    // RFC 8785 form: {"input":{"a":[1,"é",true,null],"b":1.5,"c":{"d":1e+21}},"path":"payments.charge"}
    const input = { c: { d: 1e21 }, b: 1.5, a: [1, "é", true, null] };
    expect(fingerprint("payments.charge", input)).toBe(
      "625d6f9f09a70728c4c9fc7f5c6c87c6b8f5b5150b650966f5ea48f1820eb04e",
    );
  });
});
