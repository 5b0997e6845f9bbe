import { Id } from '@storage/contracts/fields';
import { z } from 'zod';

/** The path parameters of a route about one thing: `/…/:id`. */
export const IdParams = z.strictObject({ id: Id });
