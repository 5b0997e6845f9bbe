import { z } from 'zod';
import { NewPassword } from './auth.ts';
import { IsoDateTime, OptionalText, RequiredText } from './fields.ts';
import { FeeAmount } from './money.ts';

// The business's settings: one `settings-<scope>` stream of events, one row of the read model.

/** The whole business is one scope today; per-facility settings would be scopes of their own. */
export const BUSINESS_SETTINGS_SCOPE = 'business';

const OptionalEmail = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .nullish()
  .transform((v) => (v ? v.toLowerCase() : null))
  .pipe(z.email('must be a valid email address').nullable());

export const BusinessProfile = z.strictObject({
  name: RequiredText(200),
  phone: OptionalText(40),
  email: OptionalEmail,
});
export type BusinessProfileRequest = z.input<typeof BusinessProfile>;
export type BusinessProfile = z.output<typeof BusinessProfile>;

export const NotificationPreferences = z.strictObject({
  overduePaymentAlerts: z.boolean(),
  lowBatteryAlerts: z.boolean(),
  newCustomerAlerts: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

export const PaymentSettingsRequest = z.strictObject({
  automaticCharging: z.boolean(),
  lateFeeAmount: FeeAmount,
});
export type PaymentSettingsRequest = z.input<typeof PaymentSettingsRequest>;
export type PaymentPreferences = z.output<typeof PaymentSettingsRequest>;

/** What a business has before anyone saved a setting: every alert on, automatic charging on, a $25.00 late fee. */
export const defaultSettings: {
  businessProfile: { name: string | null; phone: string | null; email: string | null };
  notifications: NotificationPreferences;
  payments: PaymentPreferences;
} = {
  businessProfile: { name: null, phone: null, email: null },
  notifications: { overduePaymentAlerts: true, lowBatteryAlerts: true, newCustomerAlerts: true },
  payments: { automaticCharging: true, lateFeeAmount: '25.00' },
};

export const Settings = z.object({
  businessProfile: z.object({ name: z.string().nullable(), phone: z.string().nullable(), email: z.string().nullable() }),
  notifications: NotificationPreferences,
  payments: z.object({
    /** The configured publishable key, masked ('pk_test_••••1234'); null when the built-in test provider takes payments. */
    publishableKey: z.string().nullable(),
    automaticCharging: z.boolean(),
    lateFeeAmount: z.string(),
  }),
  /** When a setting was last saved; null while every setting is still the default. */
  updatedAt: IsoDateTime.nullable(),
});
export type Settings = z.infer<typeof Settings>;

/** Shows a publishable key's mode and last four characters only: 'pk_test_••••1234'. */
export function maskPublishableKey(key: string): string {
  const mode = /^pk_(test|live)_/.exec(key)?.[0] ?? '';
  return `${mode}••••${key.slice(-4)}`;
}

export const ChangePasswordRequest = z
  .strictObject({
    currentPassword: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
    newPassword: NewPassword,
    confirmPassword: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  })
  .superRefine((value, context) => {
    if (value.newPassword === value.currentPassword) {
      context.addIssue({ code: 'custom', path: ['newPassword'], message: 'must differ from the current password' });
    }
    if (value.confirmPassword !== value.newPassword) {
      context.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'must match the new password' });
    }
  });
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

/** Owners' security settings: whether every staff member must sign in with two factors (a code from an authenticator app). */
export const SecuritySettings = z.strictObject({ twoFactorRequired: z.boolean() });
export type SecuritySettings = z.infer<typeof SecuritySettings>;
