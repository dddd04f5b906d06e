import { createHash } from 'node:crypto';

/**
 * A deterministic plan id: the same kind, object and patch give the same id, so a
 * re-run of the same diagnosis offers the same buttons and a stored plan can be
 * found again. Hex only (BullMQ job ids must not contain ':').
 */
export function planId(kind: string, uid: string, generation: number, content: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([kind, uid, generation, content]))
    .digest('hex');
  return `${kind}-${digest.slice(0, 16)}`;
}
