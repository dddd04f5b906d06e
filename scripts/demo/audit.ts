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
      const result = e.result ?? e.outcome ?? e.reason ?? '';
      out.push(`  ${proc.name}: ${e.action} ${e.kind ?? e.planId}${where}${by}: ${result}`);
    }
  }
  return out;
}
