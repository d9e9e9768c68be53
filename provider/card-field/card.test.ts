import { describe, expect, it } from "vitest";
import { cardBrand, cardDetailsOf, formatCardNumber, formatExpiry, securityCode, validateCard } from "./card";

const valid = { number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123" };

describe("the card form", () => {
  it("names the brand from the first digits", () => {
    expect(cardBrand("4242")).toBe("Visa");
    expect(cardBrand("5555 5555")).toBe("Mastercard");
    expect(cardBrand("3782")).toBe("American Express");
    expect(cardBrand("")).toBeNull();
  });

  it("groups the digits as the card prints them", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("378282246310005")).toBe("3782 822463 10005");
    expect(formatCardNumber("4242-42")).toBe("4242 42");
  });

  it("puts the slash in the expiry date", () => {
    expect(formatExpiry("1234")).toBe("12 / 34");
    expect(formatExpiry("1")).toBe("1");
  });

  it("accepts the test cards, and says what is wrong with a bad field", () => {
    expect(validateCard(valid)).toEqual({});
    expect(validateCard({ ...valid, number: "4000 0000 0000 0002" })).toEqual({});
    expect(Object.keys(validateCard({ number: "4242 4242 4242 4241", expiry: "01 / 20", cvc: "1" }))).toEqual(
      ["number", "expiry", "cvc"],
    );
  });

  it("asks an Amex card for its four-digit code", () => {
    expect(securityCode("3782 822463 10005")).toEqual({ name: "CID", size: 4 });
    expect(validateCard({ number: "3782 822463 10005", expiry: "12 / 34", cvc: "123" }).cvc).toContain(
      "4-digit",
    );
  });

  it("hands the provider digits, the month and the four-digit year", () => {
    expect(cardDetailsOf(valid)).toEqual({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2034,
      cvc: "123",
    });
    expect(cardDetailsOf({ ...valid, expiry: "03 / 2031" })).toMatchObject({ expMonth: 3, expYear: 2031 });
  });
});
