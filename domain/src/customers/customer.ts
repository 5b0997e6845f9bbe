import type { CustomerStatus } from '@storage/contracts/enums';
import type { DomainEvent, EventData } from '@storage/contracts/events';

export type CustomerFields = Omit<EventData<'customer_added'>, 'customerId'>;
/** What an edit may change: the standing and the facility are not contact details. */
export type CustomerContactFields = Omit<CustomerFields, 'status' | 'facilityId'>;

export type CustomerState =
  | { status: 'none' }
  | { status: 'current'; customerId: string; fields: CustomerFields }
  | { status: 'archived'; customerId: string; fields: CustomerFields };

export const initialCustomerState: CustomerState = { status: 'none' };

export function evolveCustomer(state: CustomerState, event: DomainEvent): CustomerState {
  switch (event.type) {
    case 'customer_added': {
      const { customerId, ...fields } = event.data;
      return { status: 'current', customerId, fields };
    }
    case 'customer_updated':
      if (state.status === 'none') return state;
      return { ...state, fields: { ...state.fields, ...event.data.changes } };
    case 'customer_standing_changed':
      if (state.status === 'none') return state;
      return { ...state, fields: { ...state.fields, status: event.data.status } };
    case 'customer_archived':
      if (state.status === 'none') return state;
      return { ...state, status: 'archived' };
    default:
      return state;
  }
}

export const customerAggregate = { initial: initialCustomerState, evolve: evolveCustomer };

export type CustomerAccountStatus = CustomerStatus;
