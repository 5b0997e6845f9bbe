import { streams, type UniqueKeyKind } from '@storage/contracts/events';
import { type RecordedEvent, WrongExpectedRevisionError } from '@storage/eventstore/port';
import { ConflictError } from './errors.ts';
import { type CommandContext, envelope, toDomainEvent } from './handle.ts';

// Uniqueness under concurrency on any event store: a key (an email, a unit number) is a stream
// of its own, claimed by appending at the revision we last saw. Two racing claims: one wins.

/** A claim younger than this may belong to a create still in flight; never take it over. */
const ORPHAN_CLAIM_GRACE_MS = 60_000;

export function normaliseKey(key: string): string {
  return key.trim().toLowerCase();
}

/** The stream that holds the claims of `key`. */
export function uniqueKeyStream(kind: UniqueKeyKind, key: string): string {
  return streams.uniqueKey(kind, normaliseKey(key));
}

/**
 * Claims `key` of `kind` for `ownerStream`. Returns false when another owner holds it. A claim
 * whose owner never came to exist (a crash between claim and create) is taken over. Unless the
 * caller read the key's stream, the first attempt takes the key for new (most are) and appends
 * without reading: a key that exists refuses it, and is read then.
 */
export async function claimUniqueKey(
  ctx: CommandContext,
  kind: UniqueKeyKind,
  key: string,
  ownerStream: string,
  /** The key's stream as the caller read it a moment ago (readStreams); a lost race reads it afresh. */
  known?: readonly RecordedEvent[],
): Promise<boolean> {
  const stream = uniqueKeyStream(kind, key);
  for (let attempt = 0; attempt < 5; attempt++) {
    const recorded = attempt === 0 ? (known ?? []) : await ctx.store.readStream(stream);
    const last = recorded.at(-1);
    if (last) {
      const event = toDomainEvent(last);
      if (event.type === 'unique_key_claimed') {
        if (event.data.ownerStream === ownerStream) return true;
        const claimAgeMs = Date.now() - Date.parse(last.recordedAt);
        if (claimAgeMs < ORPHAN_CLAIM_GRACE_MS) return false;
        const ownerExists = (await ctx.store.readStream(event.data.ownerStream)).length > 0;
        if (ownerExists) return false;
      }
    }
    try {
      await ctx.store.append(stream, [envelope(ctx, { type: 'unique_key_claimed', data: { ownerStream } })], {
        expectedRevision: last ? last.revision : 'no_stream',
      });
      return true;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  return false;
}

export async function releaseUniqueKey(ctx: CommandContext, kind: UniqueKeyKind, key: string, ownerStream: string): Promise<void> {
  const stream = streams.uniqueKey(kind, normaliseKey(key));
  const recorded = await ctx.store.readStream(stream);
  const last = recorded.at(-1);
  if (!last) return;
  const event = toDomainEvent(last);
  if (event.type !== 'unique_key_claimed' || event.data.ownerStream !== ownerStream) return;
  try {
    await ctx.store.append(stream, [envelope(ctx, { type: 'unique_key_released', data: { ownerStream } })], {
      expectedRevision: last.revision,
    });
  } catch (error) {
    // Someone claimed it in between: it is no longer ours to release.
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
  }
}

export interface UniqueKey {
  kind: UniqueKeyKind;
  value: string;
  ownerStream: string;
  /** The field the key comes from, and what to answer when another owner holds it. */
  field: string;
  takenMessage: string;
}

/** Writes `change` while holding `key`; a failed change lets the key go, so it is not blocked for good. */
export async function withUniqueKey<T>(ctx: CommandContext, key: UniqueKey, change: () => Promise<T>): Promise<T> {
  if (!(await claimUniqueKey(ctx, key.kind, key.value, key.ownerStream))) throw new ConflictError(key.takenMessage, key.field);
  try {
    return await change();
  } catch (error) {
    await releaseUniqueKey(ctx, key.kind, key.value, key.ownerStream);
    throw error;
  }
}

/** Moves an owner from `previousValue` to `key`: the new key is held before the change, the old one let go after. */
export async function changeUniqueKey<T>(ctx: CommandContext, key: UniqueKey, previousValue: string, change: () => Promise<T>): Promise<T> {
  // Keys are compared normalised: "Main St" and "main st" are one key, already ours.
  if (normaliseKey(key.value) === normaliseKey(previousValue)) return change();
  const result = await withUniqueKey(ctx, key, change);
  await releaseUniqueKey(ctx, key.kind, previousValue, key.ownerStream);
  return result;
}
