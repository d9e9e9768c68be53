import type { PropsWithChildren } from "react";

/** A 404 page's card: what was not found, why, and the links to go on with. */
export function NotFoundCard({ title, text, children }: PropsWithChildren<{ title: string; text: string }>) {
  return (
    <section className="card not-found" aria-labelledby="not-found-heading">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-heading">{title}</h1>
      <p className="muted">{text}</p>
      <p className="not-found-links">{children}</p>
    </section>
  );
}
