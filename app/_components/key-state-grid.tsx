import type { RequestView } from "~/app/_lib/server-account";
import { TableHead } from "./table-head";

type Row = NonNullable<RequestView["keyState"]>;
type Column = RequestView["payload"];

/** The guide's grid: what the server does with a request, by the key's state and the request's body. */
const GRID: Array<{ row: Row; name: string; same: string; different: string }> = [
  { row: "absent", name: "not seen", same: "claim and execute", different: "claim and execute" },
  {
    row: "in_progress",
    name: "in progress",
    same: "await the shared outcome (409 past the wait bound)",
    different: "reject (422)",
  },
  { row: "completed", name: "completed", same: "return the stored result", different: "reject (422)" },
  { row: "expired", name: "expired", same: "execute again", different: "execute again" },
];

/** The key state grid from the server's account: the latest request's cell lit, each cell's count. */
export function KeyStateGrid({ requests }: { requests: readonly RequestView[] }) {
  const latest = requests.at(-1);
  const cell = (row: Row, column: Column, text: string) => {
    const lit = latest?.keyState === row && latest.payload === column;
    const n = requests.filter((request) => request.keyState === row && request.payload === column).length;
    return (
      <td
        data-cell={`${row}-${column}`}
        data-latest={lit}
        aria-current={lit ? "true" : undefined}
        className={lit ? "grid-latest" : undefined}
      >
        {text}
        {n > 0 && (
          <span className="grid-count small">
            {n} request{n === 1 ? "" : "s"}
          </span>
        )}
      </td>
    );
  };
  return (
    <section className="card key-state-grid" aria-labelledby="grid-heading" data-testid="key-state-grid">
      <h2 id="grid-heading">What the server does with a request</h2>
      <table>
        <TableHead columns={["key state", "same payload", "different payload"]} />
        <tbody>
          {GRID.map(({ row, name, same, different }) => (
            <tr key={row}>
              <th scope="row">{name}</th>
              {cell(row, "same", same)}
              {cell(row, "different", different)}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Only the first row ever performs the side effect while the key is retained. The lit cell answered the
        latest request; &quot;different&quot; compares a body with the one its key last ran or held.
      </p>
    </section>
  );
}
