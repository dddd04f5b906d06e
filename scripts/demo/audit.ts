/** The audit trail of a demo run, read back from the app and worker logs. */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { DemoProcess } from './processes.js';

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
    })
    .loose(),
});

/** Audit events the app and worker logged (`"audit":true` JSON lines, see src/audit.ts). */
export async function auditLines(processes: readonly DemoProcess[]): Promise<string[]> {
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
      const who = e.user ? ` by ${e.user}` : e.approvedBy ? ` (approved by ${e.approvedBy.join(', ')})` : '';
      const result = e.result ?? e.outcome ?? e.reason ?? '';
      out.push(`  ${proc.name}: ${e.action} ${e.kind ?? e.planId}${where}${who}: ${result}`);
    }
  }
  return out;
}
