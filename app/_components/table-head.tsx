/** A table's header row: one column per name, the numeric ones aligned as numbers. */
export function TableHead({ columns, numeric = [] }: { columns: string[]; numeric?: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className={numeric.includes(column) ? "numeric" : undefined}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
