"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { cardFieldUrl, messageOf } from "service-kit/card-field";
import type { FromCardField, TestCard, ToCardField } from "service-kit/card-field";
import type { PaymentProviderEndpoint } from "~/app/_lib/provider-payment-method";
import type { MadePaymentMethod } from "~/app/_lib/use-payment";
import { useHydrated } from "~/app/_lib/use-hydrated";

/** How long a PaymentMethod may take, the frame's loading included: past it, the field did not answer. */
const FIELD_ANSWER_MS = 15_000;
/** A create not answered by then is asked again, under its id: a message lost on the way costs no more. */
const ASK_AGAIN_MS = 2_000;

const NO_ANSWER: MadePaymentMethod = {
  ok: false,
  reason: "no_answer",
  message:
    "The payment provider did not answer: nothing was charged. Check the connection and press Pay again.",
};

/** The provider's hosted card field, as Stripe Elements: the card never reaches this page; messages go to and come from the provider's origin only. */
export function useCardField(provider: PaymentProviderEndpoint) {
  const hydrated = useHydrated();
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState<number | null>(null);
  /** Bumped to load the frame anew: one whose page or script the lost connection cut off never says it is ready. */
  const [loads, setLoads] = useState(0);
  const answers = useRef(new Map<number, (made: MadePaymentMethod) => void>());
  const asked = useRef(0);
  /** The frame that said it is ready, and what waits for it to be (a frame shown again loads again). */
  const ready = useRef<Window | null>(null);
  const waiting = useRef<ToCardField[]>([]);
  const origin = new URL(provider.url).origin;

  const post = useCallback(
    (message: ToCardField) => {
      const target = frame.current?.contentWindow;
      if (target && target === ready.current) target.postMessage(message, origin);
      else waiting.current.push(message);
    },
    [origin],
  );

  useEffect(() => {
    const hear = (event: MessageEvent) => {
      if (event.origin !== origin || !frame.current || event.source !== frame.current.contentWindow) return;
      const message = messageOf<FromCardField>(event.data, ["ready", "height", "created", "failed"]);
      if (message?.type === "ready") {
        const target = frame.current.contentWindow;
        ready.current = target;
        for (const waited of waiting.current.splice(0)) target?.postMessage(waited, origin);
      } else if (message?.type === "height") setHeight(message.px);
      else if (message?.type === "created" || message?.type === "failed") {
        answers.current.get(message.id)?.(
          message.type === "created"
            ? { ok: true, id: message.paymentMethod }
            : { ok: false, reason: message.reason, message: message.message },
        );
        answers.current.delete(message.id);
      }
    };
    const reloadUnready = () => {
      if (frame.current && ready.current !== frame.current.contentWindow) setLoads((n) => n + 1);
    };
    window.addEventListener("message", hear);
    window.addEventListener("online", reloadUnready);
    return () => {
      window.removeEventListener("message", hear);
      window.removeEventListener("online", reloadUnready);
    };
  }, [origin]);

  return {
    field: (
      <iframe
        key={loads}
        ref={frame}
        className="card-field"
        title="Card details, in the payment provider's own frame"
        // The page's origin is known once React runs: the frame loads then, told whom to answer.
        src={
          hydrated ? cardFieldUrl(provider.url, window.location.origin, provider.publishableKey) : undefined
        }
        sandbox="allow-scripts allow-same-origin"
        // Loaded, the field listens: asked, it says it is ready, should its first word have come too soon.
        onLoad={() =>
          frame.current?.contentWindow?.postMessage({ type: "hello" } satisfies ToCardField, origin)
        }
        style={height === null ? undefined : { height }}
      />
    ),
    makePaymentMethod: () =>
      new Promise<MadePaymentMethod>((resolve) => {
        const id = ++asked.current;
        const again = setInterval(() => post({ type: "create", id }), ASK_AGAIN_MS);
        const giveUp = setTimeout(() => {
          if (answers.current.delete(id)) resolve(NO_ANSWER);
          clearInterval(again);
        }, FIELD_ANSWER_MS);
        answers.current.set(id, (made) => {
          clearInterval(again);
          clearTimeout(giveUp);
          resolve(made);
        });
        post({ type: "create", id });
      }),
    fill: (card: TestCard) => post({ type: "fill", card }),
    /** The field's inputs wait while a payment is out, as the Pay button does. */
    disable: useCallback((disabled: boolean) => post({ type: "disable", disabled }), [post]),
  };
}

export type CardField = ReturnType<typeof useCardField>;
