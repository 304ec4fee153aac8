/**
 * The header of the tables that follow files through a long job (uploads, transcription,
 * conversion): title, any columns of the screen's own, status, progress and the row's actions.
 */
export function FileTableHead({ extraColumns = [] }: { extraColumns?: string[] }) {
  return (
    <thead>
      <tr>
        <th scope="col">Title</th>
        {extraColumns.map((column) => (
          <th scope="col" key={column}>
            {column}
          </th>
        ))}
        <th scope="col">Status</th>
        <th scope="col" className="col-progress">
          Progress
        </th>
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
