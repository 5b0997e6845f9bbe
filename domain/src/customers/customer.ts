import type { CustomerStatus } from '@storage/contracts/enums';
import type { DomainEvent, EventData } from '@storage/contracts/events';

export type CustomerFields = Omit<EventData<'customer_added'>, 'customerId'>;
/** What an edit may change: the standing and the facility are not contact details. */
export type CustomerContactFields = Omit<CustomerFields, 'status' | 'facilityId'>;

/** A lease of the customer's, as listed on their stream before the lease's own stream was written. */
export type ListedLease = Omit<EventData<'customer_lease_listed'>, 'customerId'>;

type CustomerBook = {
  customerId: string;
  fields: CustomerFields;
  /** Every lease the customer took or was moving into, in the order listed; each one's own stream says whether it is active. */
  leases: readonly ListedLease[];
};

export type CustomerState = { status: 'none' } | ({ status: 'current' } & CustomerBook) | ({ status: 'archived' } & CustomerBook);

export const initialCustomerState: CustomerState = { status: 'none' };

export function evolveCustomer(state: CustomerState, event: DomainEvent): CustomerState {
  switch (event.type) {
    case 'customer_added': {
      const { customerId, ...fields } = event.data;
      return { status: 'current', customerId, fields, leases: [] };
    }
    case 'customer_updated':
      if (state.status === 'none') return state;
      return { ...state, fields: { ...state.fields, ...event.data.changes } };
    case 'customer_standing_changed':
      if (state.status === 'none') return state;
      return { ...state, fields: { ...state.fields, status: event.data.status } };
    case 'customer_lease_listed': {
      if (state.status === 'none') return state;
      const { customerId: _customer, ...lease } = event.data;
      return { ...state, leases: [...state.leases, lease] };
    }
    case 'customer_archived':
      if (state.status === 'none') return state;
      return { ...state, status: 'archived' };
    case 'customer_restored':
      if (state.status === 'none') return state;
      return { ...state, status: 'current' };
    default:
      return state;
  }
}

export const customerAggregate = { initial: initialCustomerState, evolve: evolveCustomer };

export type CustomerAccountStatus = CustomerStatus;
