/** Fault injection rules: match a request, then answer an error, delay, or reset the connection. */
import { z } from 'zod';

export const faultRuleSchema = z.object({
  match: z.object({
    verb: z.string().optional(),
    resource: z.string().optional(),
    /** '' matches cluster-wide requests only. */
    namespace: z.string().optional(),
    name: z.string().optional(),
    subresource: z.string().optional(),
    /** true: only `dryRun=All` requests; false: only real ones (drills fault the real PATCH alone). */
    dryRun: z.boolean().optional(),
  }),
  status: z.number().int().min(100).max(599).optional(),
  retryAfterSeconds: z.number().nonnegative().optional(),
  delayMs: z.number().nonnegative().optional(),
  reset: z.boolean().optional(),
  times: z.number().int().positive().optional(),
  body: z.unknown().optional(),
});

/** A rule; `times` counts down to removal (absent: forever). */
export type FaultRule = z.infer<typeof faultRuleSchema>;

export interface FaultTarget {
  verb: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  dryRun?: boolean;
}

/** Holds the active rules; `take` consumes one use of the first matching rule. */
export class FaultList {
  private rules: { rule: FaultRule; left: number }[] = [];

  add(rule: FaultRule): void {
    const parsed = faultRuleSchema.parse(rule);
    this.rules.push({ rule: parsed, left: parsed.times ?? Infinity });
  }

  clear(): void {
    this.rules = [];
  }

  take(target: FaultTarget): FaultRule | undefined {
    const entry = this.rules.find(
      ({ rule: { match: m } }) =>
        (m.verb === undefined || m.verb === target.verb) &&
        (m.resource === undefined || m.resource === target.resource) &&
        (m.namespace === undefined || m.namespace === (target.namespace ?? '')) &&
        (m.name === undefined || m.name === target.name) &&
        (m.subresource === undefined || m.subresource === target.subresource) &&
        (m.dryRun === undefined || m.dryRun === (target.dryRun ?? false)),
    );
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left <= 0) this.rules = this.rules.filter((e) => e !== entry);
    return entry.rule;
  }
}
