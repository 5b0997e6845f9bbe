import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listSorting, sortOf } from './sorting.ts';

const sorting = listSorting({ name: 'asc', createdAt: 'desc', amount: 'desc' }, 'createdAt');
const Query = z.strictObject({ ...sorting.fields });

describe('a list query sorting', () => {
  it('is in the default order when it names no column, whatever the direction asked', () => {
    expect(sortOf(sorting, {})).toEqual({ sort: 'createdAt', order: 'desc' });
    expect(sortOf(sorting, { order: 'asc' })).toEqual({ sort: 'createdAt', order: 'asc' });
  });

  it('sorts a column in its own first direction unless asked for the other', () => {
    expect(sortOf(sorting, { sort: 'name' })).toEqual({ sort: 'name', order: 'asc' });
    expect(sortOf(sorting, { sort: 'amount' })).toEqual({ sort: 'amount', order: 'desc' });
    expect(sortOf(sorting, { sort: 'amount', order: 'asc' })).toEqual({ sort: 'amount', order: 'asc' });
  });

  it('accepts only its own columns and the two directions', () => {
    expect(Query.parse({ sort: 'name', order: 'desc' })).toEqual({ sort: 'name', order: 'desc' });
    expect(Query.parse({})).toEqual({});
    expect(Query.safeParse({ sort: 'password' }).success).toBe(false);
    expect(Query.safeParse({ sort: 'Name' }).success).toBe(false);
    expect(Query.safeParse({ order: 'ASC' }).success).toBe(false);
    expect(Query.safeParse({ sort: ['name', 'amount'] }).success).toBe(false);
  });
});
