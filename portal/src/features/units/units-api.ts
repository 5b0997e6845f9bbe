import type { AvailableUnit, JoinWaitlistRequest } from '@storage/contracts/public';
import { apiRequest } from '@storage/web-client/api';

export async function fetchAvailableUnits(): Promise<AvailableUnit[]> {
  return (await apiRequest('GET', '/api/public/units/available')).json() as Promise<AvailableUnit[]>;
}

export async function joinWaitlist(entry: JoinWaitlistRequest): Promise<void> {
  await apiRequest('POST', '/api/public/waitlist', entry);
}
