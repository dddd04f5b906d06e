/**
 * The engine (./propose.ts) on a plan a chat press approved (src/worker/propose-processor.ts):
 * the plan exactly as stored (never one re-made here), the repository and path the
 * workload's GitOps owner names (./owner-source.ts, from a fresh reading of the cluster),
 * check against the cluster, the token of the worker that runs it. The CLI does the same
 * from its own diagnosis (src/cli/commands/propose.ts).
 */
import type { CheckSource } from '../check/source.js';
import type { WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Lang } from '../i18n/lang.js';
import type { RemediationPlan } from '../remediation/plan.js';
import { gitSourceOf } from './owner-source.js';
import { propose, type ProposeResult } from './propose.js';
import type { PullRecord } from './pull-record.js';
import type { Tools } from './tool.js';
import { checkRendered } from './verify.js';

interface ProposeForPlanOptions {
  collect(ref: RemediationPlan['target']): Promise<WorkloadSnapshot>;
  diagnose(snapshot: WorkloadSnapshot): Diagnosis;
  source: CheckSource;
  /** "the cluster prod", said in the pull request beside check's verdict. */
  against: string;
  token: string;
  /** The REST API base (ROLLOUT_DOCTOR_GITHUB_API, else https://api.github.com). */
  githubApi: string;
  tools?: Tools;
  lang?: Lang;
  fetch?: typeof fetch;
}

/**
 * The Git source the owner names, or why there is none ('no-source'), then the engine's
 * answer; `record` is what the body says of the press (the incident, who approved, the thread).
 */
export async function proposeForPlan(
  options: ProposeForPlanOptions,
  plan: RemediationPlan,
  record: PullRecord,
): Promise<ProposeResult | { status: 'no-source'; why: string }> {
  const snapshot = await options.collect(plan.target);
  const where = gitSourceOf(snapshot.ownerSettings, []);
  if (typeof where === 'string') return { status: 'no-source', why: where };
  const diagnosis = options.diagnose(snapshot);
  const finding = diagnosis.findings.find((f) => f.code === plan.addresses) ?? diagnosis.findings[0];
  return propose({
    plan,
    finding: { code: plan.addresses, summary: finding?.summary ?? '' },
    manual: diagnosis.manifestChanges ?? [],
    repo: where.repo,
    path: where.path,
    dryRun: false,
    lang: options.lang ?? 'en',
    token: options.token,
    github: { apiBase: options.githubApi, ...(options.fetch ? { fetch: options.fetch } : {}) },
    check: (text, file) => checkRendered(text, file, plan.target, options.source),
    against: options.against,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(where.helm ? { helm: where.helm } : {}),
    ...(where.base ? { base: where.base } : {}),
    record,
  });
}
