import type { Diagnosis } from '../../engine/diagnosis.js';

/**
 * A diagnosis verdict reduced to what should make on-call look again: the finding
 * codes and, for node-local crash loops, which nodes are bad. Counts, timestamps and
 * restart numbers change on every run and are left out, so a re-diagnosis of the
 * same incident compares equal and is not posted again.
 */
export function verdictKey(diagnosis: Pick<Diagnosis, 'findings'>): string {
  const parts = new Set<string>();
  for (const finding of diagnosis.findings) {
    const badNodes = finding.evidence.flatMap((e) => (e.type === 'node-diff' ? e.badNodes : []));
    parts.add(
      badNodes.length > 0 ? `${finding.code}@${[...new Set(badNodes)].sort().join('+')}` : finding.code,
    );
  }
  return parts.size === 0 ? 'healthy' : [...parts].sort().join(',');
}
