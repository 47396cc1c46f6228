import { useState } from 'react';

/** A server-paginated list's filter: every change of it takes the list back to its first page. */
export function usePagedFilter<T>(initial: T, setPage: (page: number) => void): [T, (value: T) => void] {
  const [value, setValue] = useState(initial);
  return [
    value,
    (next) => {
      setValue(next);
      setPage(1);
    },
  ];
}
