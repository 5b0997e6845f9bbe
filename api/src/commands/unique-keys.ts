import { streams } from '@storage/contracts/events';
import { WrongExpectedRevisionError } from '@storage/eventstore/port';
import { envelope, toDomainEvent, type CommandContext } from './handle.ts';

// Uniqueness under concurrency on any event store: a key (an email, a unit number) is a stream
// of its own, claimed by appending at the revision we last saw. Two racing claims: one wins.

/** A claim younger than this may belong to a create still in flight; never take it over. */
const ORPHAN_CLAIM_GRACE_MS = 60_000;

export function normaliseKey(key: string): string {
  return key.trim().toLowerCase();
}

/**
 * Claims `key` of `kind` for `ownerStream`. Returns false when another owner holds it. A claim
 * whose owner never came to exist (a crash between claim and create) is taken over.
 */
export async function claimUniqueKey(ctx: CommandContext, kind: string, key: string, ownerStream: string): Promise<boolean> {
  const stream = streams.uniqueKey(kind, normaliseKey(key));
  for (let attempt = 0; attempt < 5; attempt++) {
    const recorded = await ctx.store.readStream(stream);
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

export async function releaseUniqueKey(ctx: CommandContext, kind: string, key: string, ownerStream: string): Promise<void> {
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
