/**
 * The name payment keys are stored under: payments.charge runs under it, and
 * the order page and the ledger read the keys' state by it.
 */
export const PAYMENT_KEYSPACE = "payments.charge";
