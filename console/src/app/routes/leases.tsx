import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../components/page-header.tsx';
import { takeDeskPaymentOnce } from '../../features/customers/api/desk.ts';
import { CustomerPicker, customerOption } from '../../features/customers/components/customer-picker.tsx';
import { LazyCustomerFormDialog } from '../../features/customers/components/lazy-customer-form-dialog.tsx';
import { useLeaseCounts } from '../../features/leases/api/get-lease-counts.ts';
import { LeasesList } from '../../features/leases/components/leases-list.tsx';
import { MoveInButton, type MoveInMerchandise, type MoveInNewCustomerDialog } from '../../features/leases/components/move-in-button.tsx';
import { RentIncreaseButton } from '../../features/leases/components/rent-increase-button.tsx';
import { merchandiseQueryKey, sellMerchandise } from '../../features/merchandise/api/merchandise.ts';
import { MoveInMerchandiseSection } from '../../features/merchandise/components/move-in-merchandise.tsx';
import { ReservationsSection } from '../../features/reservations/components/reservations-section.tsx';
import { unitsQueryKey } from '../../features/units/api/get-units.ts';
import { facilitiesQueryOptions } from '../../lib/facilities.ts';
import { useFacilityScope } from '../../lib/facility-scope.tsx';
import { customersQueryKey } from '../../lib/query-keys.ts';
import { useCanChangeRent } from '../../lib/staff-permissions.ts';

/** Add Customer over the Move In: the customer added is chosen in its picker. */
const NewCustomerDialog: MoveInNewCustomerDialog = ({ open, onClose, onCreated }) => (
  <LazyCustomerFormDialog open={open} onClose={onClose} onCreated={(customer) => onCreated(customerOption(customer))} />
);

export default function LeasesPage() {
  const queryClient = useQueryClient();
  const { selectedFacility } = useFacilityScope();
  const canChangeRent = useCanChangeRent();
  const counts = useLeaseCounts({ search: '', facilityId: selectedFacility?.id ?? null });
  // A move-in or move-out changes the unit's status and its facility's occupancy.
  const refreshUnits = () => {
    void queryClient.invalidateQueries({ queryKey: unitsQueryKey });
    void queryClient.invalidateQueries({ queryKey: facilitiesQueryOptions().queryKey });
  };
  // A payment taken at move-in changes the renter's balance.
  const takeMoveInPayment: typeof takeDeskPaymentOnce = async (customerId, request) => {
    const receipt = await takeDeskPaymentOnce(customerId, request);
    void queryClient.invalidateQueries({ queryKey: customersQueryKey });
    return receipt;
  };

  // Items sold at move-in take their stock and bill the renter.
  const merchandise: MoveInMerchandise = {
    Section: MoveInMerchandiseSection,
    sell: async (customerId, request, key) => {
      const sale = await sellMerchandise(customerId, request, key);
      void queryClient.invalidateQueries({ queryKey: merchandiseQueryKey });
      void queryClient.invalidateQueries({ queryKey: customersQueryKey });
      return sale;
    },
  };

  return (
    <>
      <PageHeader
        title="Lease Agreements"
        subtitle={counts.data ? `Managing ${counts.data.all} lease agreements` : undefined}
        actions={
          <>
            {canChangeRent && <RentIncreaseButton />}
            <MoveInButton
              customerPicker={CustomerPicker}
              newCustomerDialog={NewCustomerDialog}
              takePayment={takeMoveInPayment}
              merchandise={merchandise}
              onMovedIn={refreshUnits}
            />
          </>
        }
      />
      <ReservationsSection facilityId={selectedFacility?.id ?? null} onDecided={refreshUnits} />
      <LeasesList onMovedOut={refreshUnits} />
    </>
  );
}
