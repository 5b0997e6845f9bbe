import { type DomainEvent, type EventData, streams } from '@storage/contracts/events';
import type { SavedCardDetails } from '@storage/platform/payments/provider';
import { derivedId } from '../commands/derived-id.ts';
import { DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, handleCommand } from '../commands/handle.ts';

// A renter's payment profile (stream payment-profile-<customer>): the cards they saved (the
// provider's references, never a number) and whether autopay charges one of them.

export type ProfileCard = Omit<EventData<'payment_method_saved'>, 'customerId'> & { removed: boolean };

export interface PaymentProfileState {
  /** Every card saved, in order; a removed one is kept (marked) so a charge decided on it can still be asked after. */
  cards: readonly ProfileCard[];
  /** The card autopay charges; null: autopay is off. */
  autopayMethodId: string | null;
}

export const initialProfileState: PaymentProfileState = { cards: [], autopayMethodId: null };

export function evolveProfile(state: PaymentProfileState, event: DomainEvent): PaymentProfileState {
  switch (event.type) {
    case 'payment_method_saved': {
      const { customerId: _customer, ...card } = event.data;
      return { ...state, cards: [...state.cards, { ...card, removed: false }] };
    }
    case 'payment_method_removed':
      return { ...state, cards: state.cards.map((c) => (c.paymentMethodId === event.data.paymentMethodId ? { ...c, removed: true } : c)) };
    case 'autopay_enrolled':
      return { ...state, autopayMethodId: event.data.paymentMethodId };
    case 'autopay_cancelled':
      return { ...state, autopayMethodId: null };
    default:
      return state;
  }
}

export const profileAggregate = { initial: initialProfileState, evolve: evolveProfile };

export const liveCards = (state: PaymentProfileState) => state.cards.filter((c) => !c.removed);

/** The card autopay charges, when autopay is on. */
export function autopayCard(state: PaymentProfileState): ProfileCard | null {
  return state.cards.find((c) => c.paymentMethodId === state.autopayMethodId && !c.removed) ?? null;
}

/** A card's id in our history: derived from the provider's reference, so a repeated save is the same card. */
export const paymentMethodIdOf = (customerId: string, providerPaymentMethodId: string) => derivedId('payment-method', customerId, providerPaymentMethodId);

// --- Deciders (pure) ---

export function decideSaveCard(
  state: PaymentProfileState,
  customerId: string,
  provider: 'test' | 'stripe',
  details: SavedCardDetails,
  autopay: boolean,
): DomainEvent[] {
  const paymentMethodId = paymentMethodIdOf(customerId, details.providerPaymentMethodId);
  const known = state.cards.find((c) => c.paymentMethodId === paymentMethodId);
  const events: DomainEvent[] = [];
  if (!known) events.push({ type: 'payment_method_saved', data: { customerId, paymentMethodId, provider, ...details } });
  else if (known.removed) throw new DomainRuleError('This card was removed; save it again as a new card');
  if (autopay && state.autopayMethodId !== paymentMethodId) events.push({ type: 'autopay_enrolled', data: { customerId, paymentMethodId } });
  return events;
}

export function decideRemoveCard(state: PaymentProfileState, customerId: string, paymentMethodId: string): DomainEvent[] {
  const card = state.cards.find((c) => c.paymentMethodId === paymentMethodId);
  if (!card) throw new NotFoundError('Card not found');
  if (card.removed) return [];
  const events: DomainEvent[] = [];
  // Autopay never charges a card that is gone: it stops with it.
  if (state.autopayMethodId === paymentMethodId)
    events.push({ type: 'autopay_cancelled', data: { customerId, reason: 'The card autopay charged was removed' } });
  events.push({ type: 'payment_method_removed', data: { customerId, paymentMethodId } });
  return events;
}

export function decideAutopay(
  state: PaymentProfileState,
  customerId: string,
  enabled: boolean,
  paymentMethodId: string | undefined,
  reason: string,
): DomainEvent[] {
  if (!enabled) return state.autopayMethodId === null ? [] : [{ type: 'autopay_cancelled', data: { customerId, reason } }];
  const cards = liveCards(state);
  let card: ProfileCard | undefined;
  if (paymentMethodId !== undefined) {
    card = cards.find((c) => c.paymentMethodId === paymentMethodId);
    if (!card) throw new NotFoundError('Card not found');
  } else {
    card = cards.find((c) => c.paymentMethodId === state.autopayMethodId) ?? cards.at(-1);
    if (!card) throw new DomainRuleError('paymentMethodId: Save a card before turning autopay on', 'paymentMethodId');
  }
  if (state.autopayMethodId === card.paymentMethodId) return [];
  return [{ type: 'autopay_enrolled', data: { customerId, paymentMethodId: card.paymentMethodId } }];
}

// --- Commands ---

const stream = (customerId: string) => streams.paymentProfile(customerId);

export async function savePaymentMethod(ctx: CommandContext, customerId: string, provider: 'test' | 'stripe', details: SavedCardDetails, autopay: boolean) {
  const result = await handleCommand(ctx, stream(customerId), profileAggregate, (state) => decideSaveCard(state, customerId, provider, details, autopay));
  return { ...result, paymentMethodId: paymentMethodIdOf(customerId, details.providerPaymentMethodId) };
}

export async function removePaymentMethod(ctx: CommandContext, customerId: string, paymentMethodId: string) {
  return handleCommand(ctx, stream(customerId), profileAggregate, (state) => decideRemoveCard(state, customerId, paymentMethodId));
}

export async function setAutopay(ctx: CommandContext, customerId: string, enabled: boolean, paymentMethodId?: string, reason = 'Turned off by the renter') {
  return handleCommand(ctx, stream(customerId), profileAggregate, (state) => decideAutopay(state, customerId, enabled, paymentMethodId, reason));
}
