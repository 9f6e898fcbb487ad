/** When, readably; the exact time (UTC, to the millisecond) in its title and datetime. */
export function When({ at }: { at: string }) {
  const date = new Date(at);
  return (
    <time dateTime={at} title={at}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}
