import { type DelinquencyStep, effectiveDelinquencySteps } from '@storage/contracts/delinquency';
import { streams } from '@storage/contracts/events';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import type { EventStore } from '@storage/eventstore/port';
import { loadAggregate } from '../commands/handle.ts';
import { settingsAggregate } from '../settings/settings.ts';

/** The delinquency schedule that applies to a facility, from the settings streams: its own, else the business's, else the default. */
export async function delinquencyStepsFor(store: EventStore, facilityId: string | null): Promise<readonly DelinquencyStep[]> {
  const business = (await loadAggregate(store, streams.settings(BUSINESS_SETTINGS_SCOPE), settingsAggregate)).state;
  const facility = facilityId ? (await loadAggregate(store, streams.settings(facilityId), settingsAggregate)).state : null;
  return effectiveDelinquencySteps(business.delinquency, facility?.delinquency ?? null);
}
