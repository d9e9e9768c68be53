"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { formatCents } from "~/app/_lib/money";
import { readSessionItem, removeSessionItem, writeSessionItem } from "~/app/_lib/session-storage";
import { useSubmissionKey } from "~/app/_lib/use-submission-key";
import { useTRPC } from "~/app/_trpc/provider";
import { isServerUnreachable } from "~/app/_trpc/server-unreachable";
import { CartBar } from "./cart-bar";
import { ProductImage } from "./product-image";
import { ShortId } from "./short-id";

type Cart = Record<string, number>;

const CART_KEY = "checkout.cart";

function parseCart(value: unknown): Cart | null {
  if (typeof value !== "object" || value === null) return null;
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, number] => Number.isInteger(entry[1]) && entry[1] > 0,
    ),
  );
}

export function Checkout() {
  const trpc = useTRPC();
  const router = useRouter();
  const catalog = useQuery(trpc.catalog.list.queryOptions());
  const { submissionKey, orderPlaced } = useSubmissionKey();
  const [cart, setCart] = useState<Cart>({});

  useEffect(() => {
    // The cart lives in the tab, so a reload of the form keeps it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setCart(readSessionItem(CART_KEY, parseCart) ?? {});
  }, []);

  const updateCart = (sku: string, delta: number) => {
    setCart((current) => {
      const quantity = Math.max(0, Math.min(99, (current[sku] ?? 0) + delta));
      const { [sku]: _removed, ...rest } = current;
      const next = quantity > 0 ? { ...rest, [sku]: quantity } : rest;
      writeSessionItem(CART_KEY, next);
      return next;
    });
  };

  const placeOrder = useMutation(
    trpc.orders.place.mutationOptions({
      onSuccess: (order) => {
        orderPlaced();
        removeSessionItem(CART_KEY);
        router.push(`/orders/${order.id}`);
      },
    }),
  );

  const products = catalog.data ?? [];
  const lines = products.filter((product) => (cart[product.sku] ?? 0) > 0);
  const totalCents = lines.reduce((sum, product) => sum + product.priceCents * (cart[product.sku] ?? 0), 0);
  const busy = placeOrder.isPending || placeOrder.isSuccess;
  const itemCount = lines.reduce((sum, product) => sum + (cart[product.sku] ?? 0), 0);
  const stepButton = (sku: string, delta: number, sign: string, label: string, disabled: boolean) => (
    <button
      type="button"
      onClick={() => updateCart(sku, delta)}
      disabled={disabled || busy}
      aria-label={label}
    >
      {sign}
    </button>
  );

  return (
    <div className="checkout">
      <section aria-labelledby="catalog-heading">
        <h1 id="catalog-heading">Shop</h1>
        {catalog.isPending && <p className="muted">Loading the catalogue…</p>}
        {catalog.isError && !isServerUnreachable(catalog.error) && (
          <p role="alert">The catalogue could not be loaded: {catalog.error.message}</p>
        )}
        <ul className="product-grid">
          {products.map((product) => {
            const quantity = cart[product.sku] ?? 0;
            return (
              <li key={product.sku} className="card product" data-sku={product.sku}>
                <ProductImage sku={product.sku} />
                <h2>{product.name}</h2>
                <p className="muted description">{product.description}</p>
                <div className="product-footer">
                  <p className="price">{formatCents(product.priceCents)}</p>
                  <div className="stepper" role="group" aria-label={`Quantity of ${product.name}`}>
                    {stepButton(product.sku, -1, "−", `Remove one ${product.name}`, quantity === 0)}
                    <output aria-live="polite" aria-label={`${product.name} in cart`}>
                      {quantity}
                    </output>
                    {stepButton(product.sku, 1, "+", `Add one ${product.name}`, quantity >= 99)}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <aside className="card cart" id="cart" tabIndex={-1} aria-labelledby="cart-heading">
        <h2 id="cart-heading">Your cart</h2>
        {lines.length === 0 ? (
          <p className="muted">Your cart is empty. Add something from the shop.</p>
        ) : (
          <ul className="cart-lines">
            {lines.map((product) => (
              <li key={product.sku}>
                <span className="line-name">
                  <ProductImage sku={product.sku} size="small" />
                  {product.name} × {cart[product.sku]}
                </span>
                <span className="amount">{formatCents(product.priceCents * (cart[product.sku] ?? 0))}</span>
              </li>
            ))}
          </ul>
        )}
        <p className="cart-total">
          <span>Total</span>
          <strong data-testid="cart-total">{formatCents(totalCents)}</strong>
        </p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!submissionKey) return;
            placeOrder.mutate({
              submissionKey,
              items: lines.map((product) => ({ sku: product.sku, quantity: cart[product.sku] ?? 0 })),
            });
          }}
        >
          <button className="primary" type="submit" disabled={lines.length === 0 || !submissionKey || busy}>
            {busy ? "Placing order…" : "Place order"}
          </button>
        </form>
        {placeOrder.isError && (
          <p role="alert" className="error">
            The order was not placed: {placeOrder.error.message}
          </p>
        )}
        <p className="key-note">
          Submission key{" "}
          {submissionKey ? (
            <ShortId value={submissionKey} name="submission key" testId="submission-key" />
          ) : (
            "…"
          )}
          : created when this form was shown, so a double submit places one order.
        </p>
      </aside>
      <CartBar count={itemCount} totalCents={totalCents} />
    </div>
  );
}
