import type { Promotion, UpdatePromotionsRequest } from '@storage/contracts/promotions';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export const promotionsQueryKey = ['settings', 'promotions'] as const;

/** GET and PUT /api/settings/promotions answer the business's promotions, all of them. */
export type PromotionsAnswer = { promotions: Promotion[] };

export async function getPromotions(): Promise<PromotionsAnswer> {
  const response = await apiRequest('GET', '/api/settings/promotions');
  return response.json();
}

export function usePromotions() {
  return useQuery({ queryKey: promotionsQueryKey, queryFn: getPromotions });
}

export async function updatePromotions(request: UpdatePromotionsRequest): Promise<PromotionsAnswer> {
  const response = await apiRequest('PUT', '/api/settings/promotions', request);
  return response.json();
}

export function useUpdatePromotions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePromotions,
    onSuccess: (answer) => queryClient.setQueryData(promotionsQueryKey, answer),
  });
}
