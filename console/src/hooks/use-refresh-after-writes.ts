import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * Refetches these queries after any change saved while the screen is open, so a summary screen
 * shows every write. Pass a list defined once (module scope), not one built on each render.
 */
export function useRefreshAfterWrites(queryKeys: readonly QueryKey[]) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success') return;
        for (const queryKey of queryKeys) void queryClient.invalidateQueries({ queryKey });
      }),
    [queryClient, queryKeys],
  );
}
