import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { labEnabled } from "~/server/env";
import { ENFORCING_LINES } from "~/server/lab/pitfalls/enforcing-lines";
import type { PitfallId } from "~/server/lab/pitfalls/enforcing-lines";
import { enforcingLineIn, readShownSource } from "~/server/lab/source-file";

interface Props {
  params: Promise<{ path: string[] }>;
  searchParams: Promise<{ pitfall?: string | string[] }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Source: ${(await params).path.join("/")}` };
}

function isPitfallId(value: unknown): value is PitfallId {
  return typeof value === "string" && Object.hasOwn(ENFORCING_LINES, value);
}

/** The files that enforce the guide's rules, read-only: there is no public repository to link to. */
export default async function SourcePage({ params, searchParams }: Props) {
  if (!labEnabled()) notFound();
  const file = (await params).path.join("/");
  const lines = await readShownSource(file);
  if (!lines) notFound();
  const { pitfall } = await searchParams;
  const marked =
    isPitfallId(pitfall) && ENFORCING_LINES[pitfall].path === file ? enforcingLineIn(lines, pitfall) : null;
  return (
    <section className="card source" aria-labelledby="source-heading">
      <h1 id="source-heading">
        <code>{file}</code>
      </h1>
      {marked !== null && (
        <p className="muted small">
          Line {marked} keeps the rule the lab&apos;s pitfall breaks: <a href="#enforcing">go to it</a>.
        </p>
      )}
      <ol className="source-lines">
        {lines.map((line, index) => {
          const number = index + 1;
          const enforcing = number === marked;
          return (
            <li key={number} id={`L${number}`} data-line={number} data-enforcing={enforcing || undefined}>
              {enforcing && <span id="enforcing" />}
              <a href={`#L${number}`} className="line-number" aria-label={`line ${number}`}>
                {number}
              </a>
              <code>{line}</code>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
