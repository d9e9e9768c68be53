/** The name payment keys are stored under, which the order page and the ledger read them by. */
export const PAYMENT_KEYSPACE = "payments.charge";

/** Where the account keeps the lab's naive client's requests: under their order, each under the key it made. */
export const NAIVE_CHARGE_PATH = "lab.naiveCharge";
