import { remediationKinds } from '../kinds/index.js';
import type { PlanBuilder } from '../kinds/kind.js';

export type { PlanBuilder } from '../kinds/kind.js';

/**
 * Plan builders by the finding code they address, from the kinds that answer it
 * (src/remediation/kinds/: each kind names its builder per finding), in registry
 * order, best plan first. Unschedulable gets no plan: no strategy change makes the
 * pod fit.
 */
export const planBuilders: Partial<Record<string, PlanBuilder>> = Object.fromEntries(
  [...new Set(remediationKinds.flatMap((k) => Object.keys(k.answers)))].map((code): [string, PlanBuilder] => [
    code,
    (ctx, finding, notOffered) =>
      remediationKinds
        // A kind builds plans only for the workload kinds it may write (the allowlist refuses the rest).
        .filter((k) => (k.workloads ?? ['Deployment']).includes(ctx.snapshot.target.kind))
        .flatMap((k) => k.answers[code]?.(ctx, finding, notOffered) ?? []),
  ]),
);
