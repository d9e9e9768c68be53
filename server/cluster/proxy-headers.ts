/** The response header that names the instance that answered, as load balancers add one. */
export const SERVED_BY_HEADER = "x-served-by";

/** The request header that tells an instance that the demo's round-robin proxy sent the request. */
export const VIA_ROUND_ROBIN_PROXY_HEADER = "x-via-round-robin-proxy";
