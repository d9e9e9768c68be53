import { createHash } from "node:crypto";
import Stripe from "stripe";
import type { chargeableOf } from "./cards";
import type { Charge } from "./db/generated/sqlite/client";

/** Stripe's last_payment_error, and a card_error's body: what a decline says. */
export interface PaymentError {
  type: "card_error";
  code: "card_declined";
  decline_code: string;
  message: string;
  charge: string;
  payment_method: ReturnType<typeof paymentMethodJson>;
}

const NO_ADDRESS = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null };
const NO_BILLING_DETAILS = { address: NO_ADDRESS, email: null, name: null, phone: null, tax_id: null };
const NO_ADDRESS_CHECKS = { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" };
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

// Every field of Stripe's objects (held to its fixtures), null where the mock has no such thing.

export function paymentMethodJson(method: Omit<ReturnType<typeof chargeableOf>, "cardNumber">) {
  const { card } = method;
  return {
    id: method.id,
    object: "payment_method" as const,
    allow_redisplay: "unspecified",
    billing_details: NO_BILLING_DETAILS,
    card: {
      brand: card.brand,
      checks: NO_ADDRESS_CHECKS,
      country: "US",
      display_brand: card.brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: card.fingerprint,
      funding: "credit",
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: seconds(method.createdAt),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card" as const,
  };
}

export function chargeJson(charge: Charge) {
  const paid = charge.status === "succeeded";
  return {
    id: charge.id,
    object: "charge" as const,
    amount: charge.amount,
    amount_captured: paid ? charge.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: paid ? `txn_${charge.id.slice(3)}` : null,
    billing_details: NO_BILLING_DETAILS,
    calculated_statement_descriptor: "IDEMPOTENT CHECKOUT",
    captured: paid,
    created: seconds(charge.createdAt),
    currency: charge.currency,
    customer: null,
    description: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: charge.failureCode,
    failure_message: charge.failureMessage,
    fraud_details: {},
    livemode: false,
    // A PaymentIntent's charge carries the intent's metadata, as at Stripe.
    metadata: JSON.parse(charge.metadata) as Record<string, string>,
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: paid ? "approved_by_network" : "declined_by_network",
      reason: paid ? null : charge.failureCode,
      seller_message: paid
        ? "Payment complete."
        : "The bank did not return any further details with this decline.",
      type: paid ? "authorized" : "issuer_declined",
    },
    paid,
    payment_intent: charge.paymentIntent,
    payment_method: charge.paymentMethod,
    payment_method_details: { card: chargeCardJson(charge), type: "card" },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    refunds: { object: "list", data: [], has_more: false, url: `/v1/charges/${charge.id}/refunds` },
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: charge.status,
    transfer_data: null,
    transfer_group: null,
  };
}

function chargeCardJson(charge: Charge) {
  return {
    amount_authorized: charge.amount,
    authorization_code: null,
    brand: charge.cardBrand,
    checks: NO_ADDRESS_CHECKS,
    country: "US",
    exp_month: charge.cardExpMonth,
    exp_year: charge.cardExpYear,
    extended_authorization: { status: "disabled" },
    fingerprint: charge.cardFingerprint,
    funding: "credit",
    incremental_authorization: { status: "unavailable" },
    installments: null,
    last4: charge.cardLast4,
    mandate: null,
    multicapture: { status: "unavailable" },
    network: charge.cardBrand,
    network_token: { used: false },
    network_transaction_id: null,
    overcapture: { maximum_amount_capturable: charge.amount, status: "unavailable" },
    regulated_status: "unregulated",
    three_d_secure: null,
    transaction_link_id: null,
    wallet: null,
  };
}

/** A charge's PaymentIntent (one row holds both), with its latest charge expanded when asked. */
export function paymentIntentJson(intent: Charge, expand: boolean) {
  const succeeded = intent.status === "succeeded";
  return {
    id: intent.paymentIntent,
    object: "payment_intent" as const,
    amount: intent.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: succeeded ? intent.amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${intent.paymentIntent}_secret_${createHash("sha256").update(intent.paymentIntent).digest("hex").slice(0, 24)}`,
    confirmation_method: "automatic",
    created: seconds(intent.createdAt),
    currency: intent.currency,
    customer: null,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error:
      intent.lastPaymentError === null ? null : (JSON.parse(intent.lastPaymentError) as PaymentError),
    latest_charge: expand ? chargeJson(intent) : intent.id,
    livemode: false,
    managed_payments: null,
    metadata: JSON.parse(intent.metadata) as Record<string, string>,
    next_action: null,
    on_behalf_of: null,
    // After a decline the intent takes another payment method; Stripe keeps the declined one's id off it.
    payment_method: succeeded ? intent.paymentMethod : null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: succeeded ? "succeeded" : "requires_payment_method",
    transfer_data: null,
    transfer_group: null,
  };
}

export function eventJson(event: {
  id: string;
  type: string;
  object: unknown;
  /** The API request that caused it: its Request-Id and Idempotency-Key. */
  request: { id: string | null; idempotency_key: string | null };
  createdAt: Date;
}) {
  return {
    id: event.id,
    object: "event" as const,
    api_version: Stripe.API_VERSION,
    created: seconds(event.createdAt),
    data: { object: event.object },
    livemode: false,
    pending_webhooks: 1,
    request: event.request,
    type: event.type,
  };
}
