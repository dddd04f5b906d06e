/**
 * `rollout-doctor apply deployment/NAME -n NS --remediation KIND|ID [--yes]
 * [--lasts 4h|24h|3d|7d|until-removed] [--context C] [--kubeconfig F]
 * [--timeout SECONDS]`: diagnoses live, shows the exact
 * write (which object, which patch or which deletions) and the server's dry-run
 * changes, asks for confirmation (y/N on a terminal, or --yes), applies, then follows
 * the rollout. Exit (DESIGN.md §3, and HELP below): 0 applied and rolled out; 1 not
 * applied (refused, failed, or declined at the prompt: the problem is still there,
 * and declining is an answer, not bad input) or the rollout did not complete; 2 bad
 * arguments, no such remediation, or no terminal to confirm on without --yes; 3
 * cluster unreachable or forbidden; 4 internal error.
 */
import { cleanText } from '../../text/clean.js';
import type { RemediationPlan } from '../../remediation/plan.js';
import { findKind, remediationKinds } from '../../remediation/kinds/index.js';
import {
  argocdNamespace,
  cliLang,
  clusterOptions,
  LANG_OPTION,
  parseCommandArgs,
  wantsHelp,
  workloadRefArg,
} from '../args.js';
import { EXIT, type CliIo } from '../io.js';
import { usageError, usageWords } from '../usage-words.js';
import type { WorkloadKind } from '../../diagnosis/workload-ref.js';
import { applyAndFollow } from '../apply-flow.js';
import { withPlanTtl } from '../../remediation/exclusion-times.js';
import {
  EXCLUSION_TTL_CHOICES,
  exclusionTtlChoiceSchema,
  type ExclusionTtlChoice,
} from '../../remediation/exclusion-ttl.js';
import { lastsClause } from '../../remediation/exclusion-words.js';
import { APPLY_FLAGS, APPLY_VALUES, HELP_WORDS } from '../help-words.js';
import { translate } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { APPLY_FLOW_WORDS } from '../apply-flow-words.js';

/**
 * The kinds a diagnosis offers, so the ones apply can choose: not the kinds that exist
 * only as another's Undo (scale-back-old-replicaset, untaint-device: `undo` applies those).
 */
const APPLIED_KINDS: readonly string[] = remediationKinds
  .filter((k) => k.undoes === undefined)
  .map((k) => k.kind);

const USAGE = `rollout-doctor apply TYPE/NAME -n NAMESPACE --remediation KIND|ID [--yes]
                             [--lasts ${EXCLUSION_TTL_CHOICES.join('|')}]
                             [--context C] [--kubeconfig F] [--timeout SECONDS]
                             [--argocd-namespace NS] [--lang en|ko]`;

/** The help in `lang` (cli/help-words.ts): flags, kinds and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'applyHelp', {
    usage: USAGE,
    flags: [...APPLY_FLAGS],
    values: [...APPLY_VALUES],
    kinds: [...APPLIED_KINDS],
    choices: [...EXCLUSION_TTL_CHOICES],
  });
}

export interface ApplyArgs {
  kind: WorkloadKind;
  namespace: string;
  /** -n was given; otherwise the kubeconfig context's namespace is used, as kubectl does. */
  namespaceGiven: boolean;
  name: string;
  remediation: string;
  yes: boolean;
  timeoutMs: number;
  context?: string;
  kubeconfig?: string;
  /** --argocd-namespace as given; applyCommand() falls back to the environment. */
  argocdNamespace?: string;
  /** --lasts: how long an exclude-node plan's exclusion lasts, in place of the plan's own. */
  lasts?: ExclusionTtlChoice;
}

export function parseApplyArgs(argv: string[]): ApplyArgs {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      namespace: { type: 'string', short: 'n' },
      remediation: { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      timeout: { type: 'string' },
      context: { type: 'string' },
      kubeconfig: { type: 'string' },
      'argocd-namespace': { type: 'string' },
      lasts: { type: 'string' },
      ...LANG_OPTION,
    },
  });
  const { kind, namespace, name } = workloadRefArg(positionals, values.namespace, 'remediated');
  if (!values.remediation) throw usageError('whichRemediation', {});
  if (!isRemediationName(values.remediation))
    throw usageError('badRemediation', { value: values.remediation, kinds: APPLIED_KINDS });
  const lasts = lastsArg(values.lasts, values.remediation);
  const seconds = values.timeout === undefined ? 300 : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) throw usageError('positiveTimeout', {});
  return {
    kind,
    namespace,
    namespaceGiven: values.namespace !== undefined,
    name,
    remediation: values.remediation,
    yes: values.yes ?? false,
    timeoutMs: seconds * 1000,
    ...(values['argocd-namespace'] !== undefined ? { argocdNamespace: values['argocd-namespace'] } : {}),
    ...(lasts !== undefined ? { lasts } : {}),
    ...clusterOptions(values),
  };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout.write(help(cliLang(argv, io.env)));
    return EXIT.ok;
  }
  return applyCommand(parseApplyArgs(argv), io, cliLang(argv, io.env));
}

async function applyCommand(args: ApplyArgs, io: CliIo, lang: Lang): Promise<number> {
  const { createKubeClient } = await import('../../kube/client.js');
  const { collectSnapshot } = await import('../../kube/read/collector.js');
  const { diagnose } = await import('../../engine/diagnose.js');
  const note = (text: string): void => void io.stderr.write(`rollout-doctor apply: ${cleanText(text)}\n`);

  const client = createKubeClient({
    kubeconfig: args.kubeconfig,
    context: args.context,
    environment: io.env,
  });
  const namespace = args.namespaceGiven ? args.namespace : (client.namespace ?? args.namespace);
  const ref = { kind: args.kind, namespace, name: args.name };
  const argocd = argocdNamespace(args.argocdNamespace, io.env);
  const diagnosis = diagnose(
    await collectSnapshot(client, ref, argocd !== undefined ? { argocdNamespace: argocd } : {}),
  );
  const plan = choosePlan(diagnosis.remediations, args.remediation);
  if (!plan) {
    const offered = diagnosis.remediations.map((p) => `${p.kind} (${p.id})`);
    note(
      usageWords(lang, 'noRemediation', {
        value: args.remediation,
        target: `${namespace}/${args.name}`,
        offered,
      }),
    );
    return EXIT.usage;
  }
  const chosen = args.lasts === undefined ? plan : withPlanTtl(plan, args.lasts);
  if (!chosen) {
    note(usageWords(lang, 'noDuration', { ttl: args.lasts ?? '', plan: `${plan.kind} (${plan.id})` }));
    return EXIT.usage;
  }
  if (args.lasts !== undefined) {
    const clause = lastsClause(args.lasts, lang);
    io.stdout.write(
      `${translate(APPLY_FLOW_WORDS, lang, 'lastsChosen', { flag: `--lasts ${args.lasts}`, clause })}\n`,
    );
  }
  const flow = { command: 'apply', yes: args.yes, timeoutMs: args.timeoutMs, lang } as const;
  return applyAndFollow(client, chosen, flow, io);
}

/**
 * --lasts: one of the durations an approver picks beside Approve in chat
 * (EXCLUSION_TTL_CHOICES, checked by the same zod schema a press is), and only for an
 * exclude-node remediation (its kind, or a plan id of that kind).
 */
export function lastsArg(value: string | undefined, remediation: string): ExclusionTtlChoice | undefined {
  if (value === undefined) return undefined;
  const parsed = exclusionTtlChoiceSchema.safeParse(value);
  if (!parsed.success) throw usageError('badLasts', { value, choices: EXCLUSION_TTL_CHOICES });
  if (!findKind(remediationKind(remediation))?.lasts)
    throw usageError('lastsOnlyExcludeNode', { value: remediation });
  return parsed.data;
}

/** The kind --remediation names: itself, or a plan id's (planId: the kind, a dash, 16 hex digits). */
function remediationKind(value: string): string {
  return /^(.+)-[0-9a-f]{16}$/.exec(value)?.[1] ?? value;
}

/** A remediation kind, or a plan id as planId makes them. */
function isRemediationName(value: string): boolean {
  return APPLIED_KINDS.includes(remediationKind(value));
}

/** By exact plan id first, then the first (best) plan of that kind. */
export function choosePlan(plans: readonly RemediationPlan[], wanted: string): RemediationPlan | undefined {
  return plans.find((p) => p.id === wanted) ?? plans.find((p) => p.kind === wanted);
}

export { appliedLine, describePlan } from '../apply-flow.js';
