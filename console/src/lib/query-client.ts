import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

const UNUSED_CACHE_LIFETIME_MS = 5 * 60 * 1000;

/** Spec §9: results never go stale, no refetch on focus, no retries; every failure goes through `onError`. */
export function createQueryClient(onError: (error: Error) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        gcTime: UNUSED_CACHE_LIFETIME_MS,
        refetchOnWindowFocus: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
