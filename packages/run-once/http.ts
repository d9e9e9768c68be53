/** The HTTP side of idempotency keys, shared by servers and browsers: no database, no Node.js module. */
export { IDEMPOTENCY_HEADERS, KEY_RULE, keyFromHeader, resultHeaders } from "./http-headers";
