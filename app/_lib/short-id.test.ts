import { describe, expect, it } from "vitest";
import { shortId } from "./short-id";

describe("short ids", () => {
  it("keep the prefix and the last four characters", () => {
    expect(shortId("ord_Mbg-rR2ZauxZ2Ho3")).toBe("ord_…2Ho3");
    expect(shortId("pay_ceb67143-f5fb-475c-9ba8-6463713386f7")).toBe("pay_…86f7");
    expect(shortId("naive_476e45bc-a8dc-4678-8aef-bd70b5c0741a")).toBe("naive_…741a");
  });

  it("leave ids that are short already as they are", () => {
    expect(shortId("ord_12345678")).toBe("ord_12345678");
    expect(shortId("s1")).toBe("s1");
  });
});
