"use client";

import { createContext } from "react";

/** The checkout_session cookie a copied curl command sends: the lab gives it (HttpOnly, no script reads it); null elsewhere. */
export const CurlSession = createContext<string | null>(null);
