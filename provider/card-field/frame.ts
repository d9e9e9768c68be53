/** The card field's script: the card stays in the provider's frame; the merchant gets only the id. */
import { TEST_CARDS, messageOf } from "service-kit/card-field";
import type { FromCardField, TestCard, ToCardField } from "service-kit/card-field";
import {
  cardBrand,
  cardDetailsOf,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  securityCode,
  validateCard,
} from "./card";
import type { CardFields } from "./card";
import { PaymentMethodError, createPaymentMethod } from "./payment-method";

const NUMBERS: Record<TestCard, string> = {
  Approved: "4242 4242 4242 4242",
  Declined: "4000 0000 0000 0002",
};
const TEST_EXPIRY = { expiry: "12 / 34", cvc: "123" };

const settings = new URLSearchParams(location.hash.slice(1));
const merchant = settings.get("origin") ?? "";
const publishableKey = settings.get("key") ?? "";
// Chromium and Safari name the origin that really framed the field: where they do, it must be the one declared.
const framedBy = location.ancestorOrigins?.[0];
const trusted = window.parent !== window && merchant !== "" && (framedBy ?? merchant) === merchant;

const inputs = {
  number: document.getElementById("number") as HTMLInputElement,
  expiry: document.getElementById("expiry") as HTMLInputElement,
  cvc: document.getElementById("cvc") as HTMLInputElement,
};
const FORMATS: Record<keyof CardFields, (value: string) => string> = {
  number: formatCardNumber,
  expiry: formatExpiry,
  cvc: (value) => digitsOf(value).slice(0, securityCode(inputs.number.value).size),
};
const post = (message: FromCardField) => window.parent.postMessage(message, merchant);
const fields = (): CardFields => ({
  number: inputs.number.value,
  expiry: inputs.expiry.value,
  cvc: inputs.cvc.value,
});

function showError(name: keyof CardFields, error: string | undefined) {
  const line = document.getElementById(`${name}-error`)!;
  line.textContent = error ?? "";
  line.hidden = !error;
  if (error) inputs[name].setAttribute("aria-invalid", "true");
  else inputs[name].removeAttribute("aria-invalid");
}

function showBrand() {
  const brand = cardBrand(inputs.number.value);
  document.getElementById("brand")!.textContent = brand ?? "";
  document.getElementById("cvc-label")!.textContent = securityCode(inputs.number.value).name;
  if (trusted) post({ type: "brand", brand });
}

function fill(card: TestCard) {
  inputs.number.value = NUMBERS[card];
  inputs.expiry.value = TEST_EXPIRY.expiry;
  inputs.cvc.value = TEST_EXPIRY.cvc;
  for (const name of Object.keys(inputs) as Array<keyof CardFields>) showError(name, undefined);
  showBrand();
}

/** Each create's answer, by its id: a create asked again (the merchant heard nothing yet) gets the same one. */
const answers = new Map<number, Promise<FromCardField>>();

async function create(id: number): Promise<FromCardField> {
  const problems = validateCard(fields());
  for (const name of Object.keys(inputs) as Array<keyof CardFields>) showError(name, problems[name]);
  const first = (Object.keys(inputs) as Array<keyof CardFields>).find((name) => problems[name]);
  if (first) {
    inputs[first].focus();
    return { type: "failed", id, reason: "invalid", message: "Check the card's details." };
  }
  try {
    const paymentMethod = await createPaymentMethod(
      { url: location.origin, publishableKey },
      cardDetailsOf(fields()),
    );
    return { type: "created", id, paymentMethod };
  } catch (error) {
    const failure =
      error instanceof PaymentMethodError ? error : new PaymentMethodError("no_answer", String(error));
    return { type: "failed", id, reason: failure.reason, message: failure.message };
  }
}

for (const [name, input] of Object.entries(inputs) as Array<[keyof CardFields, HTMLInputElement]>) {
  input.addEventListener("input", () => {
    input.value = FORMATS[name](input.value);
    showError(name, undefined);
    if (name === "number") showBrand();
  });
}

if (!trusted) {
  document.getElementById("untrusted")!.hidden = false;
} else {
  window.addEventListener("message", (event) => {
    if (event.origin !== merchant || event.source !== window.parent) return;
    const message = messageOf<ToCardField>(event.data, ["hello", "fill", "create", "disable"]);
    if (message?.type === "hello") post({ type: "ready" });
    else if (message?.type === "fill" && TEST_CARDS.includes(message.card)) fill(message.card);
    else if (message?.type === "create") {
      if (!answers.has(message.id)) answers.set(message.id, create(message.id));
      void answers.get(message.id)!.then(post);
    } else if (message?.type === "disable")
      for (const input of Object.values(inputs)) input.disabled = message.disabled;
  });
  // The merchant's page sizes the frame to the field, errors included.
  new ResizeObserver(() => post({ type: "height", px: Math.ceil(document.body.scrollHeight) })).observe(
    document.body,
  );
  fill("Approved");
  for (const input of Object.values(inputs)) input.disabled = false;
  post({ type: "ready" });
}
