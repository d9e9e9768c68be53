/** The name payment keys are stored under, which the order page and the ledger read them by. */
export const PAYMENT_KEYSPACE = "payments.charge";
