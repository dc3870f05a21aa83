import { useCallback, useMemo, useState } from 'react';

/** Which rows of a list are selected, by id; survives paging and refetches until cleared. */
export function useRowSelection() {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());

  const setMany = useCallback((changed: readonly string[], on: boolean) => {
    setIds((old) => {
      const next = new Set(old);
      for (const id of changed) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);

  return useMemo(
    () => ({
      ids,
      size: ids.size,
      has: (id: string) => ids.has(id),
      set: (id: string, on: boolean) => setMany([id], on),
      setMany,
      clear: () => setIds(new Set()),
    }),
    [ids, setMany],
  );
}

export type RowSelection = ReturnType<typeof useRowSelection>;
