import { z } from 'zod';
import { StaffRole } from './enums.ts';
import { Email } from './fields.ts';

export const LoginRequest = z.strictObject({
  email: Email,
  password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type LoginRequest = z.input<typeof LoginRequest>;

export const AuthUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: StaffRole,
});
export type AuthUser = z.infer<typeof AuthUser>;

export const MIN_PASSWORD_LENGTH = 8;
