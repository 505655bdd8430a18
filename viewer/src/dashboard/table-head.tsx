/**
 * A table's header row, the same in every table of the dashboard: its columns' names (`false` for a column not
 * shown), and `unnamed`, a last column of a row's buttons whose name only assistive technology reads.
 */
export function TableHead(props: { columns: (string | false)[]; unnamed?: string }) {
  return (
    <thead>
      <tr>
        {props.columns
          .filter((name): name is string => name !== false)
          .map((name) => (
            <th key={name} scope="col">
              {name}
            </th>
          ))}
        {props.unnamed && (
          <th scope="col">
            <span class="visually-hidden">{props.unnamed}</span>
          </th>
        )}
      </tr>
    </thead>
  )
}
