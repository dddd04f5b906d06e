import { createHash } from 'node:crypto';

/**
 * A deterministic plan id: the same kind, object and patch give the same id, so a
 * re-run of the same diagnosis offers the same buttons, a stored plan can be found
 * again and `apply --remediation ID` finds what an earlier `diagnose` printed. Only
 * cluster state goes in: never the time of the diagnosis (a restart's time is the
 * APPLY_TIME marker, filled in by the executor; see restart-time.ts). Hex only
 * (BullMQ job ids must not contain ':').
 */
export function planId(kind: string, uid: string, generation: number, content: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([kind, uid, generation, content]))
    .digest('hex');
  return `${kind}-${digest.slice(0, 16)}`;
}
