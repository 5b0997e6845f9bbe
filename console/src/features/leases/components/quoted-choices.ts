import type { MoveInQuote } from '@storage/contracts/quotes';
import type { FormInstance } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { refusalOfField } from '../../../lib/form-rules.ts';
import { NO_PLAN } from '../protection-words.ts';
import type { TermsQuote } from './move-in-quote.tsx';

export const choiceLabels = { protectionPlanId: 'Protection plan', promotionId: 'Promotion' } as const;
export type Choice = keyof typeof choiceLabels;
export const isChoiceRefused = (error: Error) => refusalOfField(error, choiceLabels) !== null;

/** Why a choice was taken back: what was chosen no longer applies to the unit or the day now chosen. */
export function withdrawnWords(field: Choice, offers: MoveInQuote['offers'] | null, chosen: string): string {
  if (field === 'promotionId') {
    const name = offers?.promotions.find((p) => p.promotionId === chosen)?.name;
    return `${name ?? 'The promotion'} does not apply to this unit and start date, so it was removed.`;
  }
  const name = offers?.plans.find((p) => p.planId === chosen)?.name;
  return `${name ? `The ${name} plan` : 'That plan'} is not offered for this unit, so it was removed.`;
}

/**
 * The plan and the promotion of a form quoted by `useTermsQuote` (its fields named
 * protectionPlanId and promotionId, NO_PLAN for none), as the Move In keeps them: the last quote's
 * offers, kept while the next loads or is refused; a choice the quote refuses (the unit or the day
 * changed under it) is taken back, and `withdrawn` says why under its field until it is chosen
 * again (`chosenAgain`, called from the form's onValuesChange).
 */
export function useQuotedChoices(form: FormInstance, quoted: TermsQuote) {
  const [offers, setOffers] = useState<MoveInQuote['offers'] | null>(null);
  const answeredOffers = quoted.query.data?.offers;
  useEffect(() => {
    if (answeredOffers) setOffers(answeredOffers);
  }, [answeredOffers]);
  const [withdrawn, setWithdrawn] = useState<Partial<Record<Choice, string>>>({});
  const refused = quoted.query.error;
  useEffect(() => {
    const refusal = refused && refusalOfField(refused, choiceLabels);
    if (!refusal) return;
    const field = refusal.field as Choice;
    const chosen: string = form.getFieldValue(field) ?? NO_PLAN;
    if (chosen === NO_PLAN) return;
    form.setFieldValue(field, NO_PLAN);
    setWithdrawn((notes) => ({ ...notes, [field]: withdrawnWords(field, offers, chosen) }));
  }, [refused, form, offers]);
  const chosenAgain = useCallback((changed: Partial<Record<Choice, unknown>>) => {
    for (const field of ['protectionPlanId', 'promotionId'] as const) {
      if (changed[field] !== undefined) setWithdrawn((notes) => ({ ...notes, [field]: undefined }));
    }
  }, []);
  return { offers, withdrawn, chosenAgain };
}
