/** The HTTP side of idempotency keys, shared by servers and browsers: no database, no Node.js module. */
export {
  DECISION_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  KEY_EXPIRES_HEADER,
  REPLAYED_HEADER,
  keyFromHeader,
} from "./http-headers";
export { KEY_PATTERN, KEY_RULE, isValidKey } from "./key";
