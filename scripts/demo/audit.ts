/** The audit trail of a demo run, read back from the app and worker logs. */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { DemoProcess } from './processes.js';
import { incidentIds } from '../../src/postmortem/build.js';
import { readAuditLog } from '../../src/postmortem/read-audit.js';

const auditLine = z.object({
  event: z
    .object({
      action: z.string(),
      planId: z.string(),
      kind: z.string().optional(),
      namespace: z.string().optional(),
      deployment: z.string().optional(),
      user: z.string().optional(),
      approvedBy: z.array(z.string()).optional(),
      result: z.string().optional(),
      outcome: z.string().optional(),
      reason: z.string().optional(),
      findings: z.array(z.object({ code: z.string() }).loose()).optional(),
      offered: z.array(z.unknown()).optional(),
    })
    .loose(),
});

/**
 * Audit events the app and worker logged (`"audit":true` JSON lines, see src/audit.ts),
 * people named as the chat shows them (`names`: id → name; an id without one as it is).
 */
export async function auditLines(
  processes: readonly DemoProcess[],
  names: Readonly<Record<string, string>> = {},
): Promise<string[]> {
  const who = (id: string): string => names[id] ?? id;
  const out: string[] = [];
  for (const proc of processes) {
    const text = await readFile(proc.logFile, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line.includes('"audit":true')) continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        continue; // not a log record (a stray stderr line)
      }
      const parsed = auditLine.safeParse(json);
      if (!parsed.success) continue;
      const e = parsed.data.event;
      const where = e.namespace && e.deployment ? ` on ${e.namespace}/${e.deployment}` : '';
      const by = e.user
        ? ` by ${who(e.user)}`
        : e.approvedBy
          ? ` (approved by ${e.approvedBy.map(who).join(', ')})`
          : '';
      if (e.action === 'diagnosis') {
        // A diagnosis (for the post-mortem): its finding codes and how many plans it offered.
        const codes = e.findings?.map((f) => f.code).join(', ') || 'no problem found';
        out.push(`  ${proc.name}: diagnosis${where}: ${codes}, ${e.offered?.length ?? 0} plans offered`);
        continue;
      }
      const result = e.result ?? e.outcome ?? e.reason ?? '';
      out.push(`  ${proc.name}: ${e.action} ${e.kind ?? e.planId}${where}${by}: ${result}`);
    }
  }
  return out;
}

/**
 * The demo's audit lines (app and worker) in a file of their own that outlives the demo's
 * temporary directory, for `rollout-doctor postmortem --from-audit`; with the incidents
 * they hold. Undefined when no process logged one.
 */
export async function keepAuditLog(
  processes: readonly DemoProcess[],
): Promise<{ file: string; incidents: string[] } | undefined> {
  const lines: string[] = [];
  for (const proc of processes) {
    const text = await readFile(proc.logFile, 'utf8').catch(() => '');
    lines.push(...text.split('\n').filter((line) => line.includes('"audit":true')));
  }
  const events = readAuditLog(lines.join('\n')).events;
  if (events.length === 0) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'rollout-doctor-postmortem-'));
  const file = join(dir, 'audit.log');
  await writeFile(file, `${lines.join('\n')}\n`);
  return { file, incidents: incidentIds(events) };
}
