import type { MessageTemplateKey } from '@storage/contracts/enums';
import type { MessagePreferences, MessagePreview, MessageStatus, MessageTemplate, OutboxMessage, OutboxMessageDetail } from '@storage/contracts/messages';
import type { ListTotal } from '@storage/contracts/page-info';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchListPage } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';
import { messagesQueryKey, messageTemplatesQueryKey } from '../../../lib/query-keys.ts';

export const MESSAGES_PAGE_SIZE = 25;

const preferencesQueryKey = (customerId: string) => ['message-preferences', customerId] as const;

export type MessagesFilter = { facilityId: string | null; customerId?: string; status?: MessageStatus; search?: string; page: number };
export type MessagesPage = { messages: OutboxMessage[]; total: ListTotal };

export async function getMessages(filter: MessagesFilter): Promise<MessagesPage> {
  const { page, ...values } = filter;
  const params = queryParams({ ...values, pageSize: MESSAGES_PAGE_SIZE });
  const { rows: messages, total } = await fetchListPage<OutboxMessage>('/api/messages', params, page);
  return { messages, total };
}

/** The previous page stays on screen while the next one loads; pending messages are looked at again soon. */
export function useMessages(filter: MessagesFilter) {
  return useQuery({
    queryKey: [...messagesQueryKey, filter],
    queryFn: () => getMessages(filter),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.messages.some((m) => m.status === 'pending') ? 5000 : false),
  });
}

export function useMessage(id: string | null) {
  return useQuery({
    queryKey: [...messagesQueryKey, 'one', id],
    queryFn: async (): Promise<OutboxMessageDetail> => (await apiRequest('GET', `/api/messages/${id}`)).json(),
    enabled: id !== null,
  });
}

export const messageTemplatesQueryOptions = () =>
  queryOptions({
    queryKey: messageTemplatesQueryKey,
    queryFn: async (): Promise<MessageTemplate[]> => (await apiRequest('GET', '/api/message-templates')).json(),
  });

export function useMessageTemplates() {
  return useQuery(messageTemplatesQueryOptions());
}

export function useSaveMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ key, subject, body }: { key: MessageTemplateKey; subject: string; body: string }): Promise<MessageTemplate> =>
      (await apiRequest('PUT', `/api/message-templates/${key}`, { subject, body })).json(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageTemplatesQueryKey }),
  });
}

export function useResetMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (key: MessageTemplateKey): Promise<MessageTemplate> => (await apiRequest('DELETE', `/api/message-templates/${key}`)).json(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageTemplatesQueryKey }),
  });
}

export function usePreviewMessage() {
  return useMutation({
    mutationFn: async ({ key, ...body }: { key: MessageTemplateKey; customerId: string; subject: string; body: string }): Promise<MessagePreview> =>
      (await apiRequest('POST', `/api/message-templates/${key}/preview`, body)).json(),
  });
}

export function useMessagePreferences(customerId: string) {
  return useQuery({
    queryKey: preferencesQueryKey(customerId),
    queryFn: async (): Promise<MessagePreferences> => (await apiRequest('GET', `/api/customers/${customerId}/message-preferences`)).json(),
  });
}

export function useSaveMessagePreferences(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (optOuts: MessageTemplateKey[]): Promise<MessagePreferences> =>
      (await apiRequest('PUT', `/api/customers/${customerId}/message-preferences`, { optOuts })).json(),
    onSuccess: (saved) => queryClient.setQueryData(preferencesQueryKey(customerId), saved),
  });
}

export function useRetryMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<OutboxMessageDetail> => (await apiRequest('POST', `/api/messages/${id}/retry`)).json(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesQueryKey }),
  });
}
