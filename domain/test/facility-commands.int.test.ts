import { randomUUID } from 'node:crypto';
import { ConflictError } from '@storage/domain/commands/errors';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addFacility, updateFacility } from '@storage/domain/facilities/commands';
import { useTestEventStore } from '@storage/testing/database';
import { describe, expect, it } from 'vitest';

const testStore = useTestEventStore('facilities');

function context(): CommandContext {
  return { store: testStore.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date('2025-06-01T10:00:00Z') };
}

const facility = (name: string) => ({ name, address: '1 Main St, Springfield', phone: null, managerName: null });

describe('facility names', () => {
  it('refuses a second facility with the same name, whatever its case', async () => {
    await addFacility(context(), facility('North Yard'));
    await expect(addFacility(context(), facility('north yard '))).rejects.toThrow(ConflictError);
  });

  it('frees the old name on a rename and takes the new one', async () => {
    const facilityId = randomUUID();
    await addFacility(context(), facility('East Yard'), facilityId);
    await addFacility(context(), facility('West Yard'));

    await expect(updateFacility(context(), facilityId, { name: 'West Yard' })).rejects.toThrow(ConflictError);
    await updateFacility(context(), facilityId, { name: 'South Yard' });
    await addFacility(context(), facility('East Yard'));
    await expect(addFacility(context(), facility('South Yard'))).rejects.toThrow(ConflictError);
  });

  it('keeps the name when a rename only changes its case', async () => {
    const facilityId = randomUUID();
    await addFacility(context(), facility('Harbor yard'), facilityId);
    await updateFacility(context(), facilityId, { name: 'Harbor Yard' });
    await expect(addFacility(context(), facility('harbor yard'))).rejects.toThrow(ConflictError);
  });
});
