/**
 * An update that waits for deletions: under `updateStrategy: OnDelete` (a StatefulSet's
 * or a DaemonSet's) the controller creates a pod of the update revision only where
 * someone deleted an old one (stateful_set_control.go: "Pods will be updated when they
 * are manually deleted"; the DaemonSet controller's rollingUpdate runs only under
 * RollingUpdate). Nothing is stuck and nothing moves by itself, so "No problem found"
 * would hide that the update has not happened: it is said as info, with the pods still
 * on an old revision and the order to delete them in. Silent where a finding already
 * speaks of the rollout (volume-pin.ts says which deletion would strand a pod).
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Finding, FindingCode } from '../finding.js';
import type { FindingWords } from '../finding-words.js';
import { workloadKind } from '../workloads/index.js';
import { podsToReplace } from '../rollout/volume-pin.js';
import { codeSpan } from '../../text/code-span.js';
import { isTerminal } from '../base/pods.js';

type Draft = Omit<Finding, 'remediations'>;
type OnDeleteParams = Extract<FindingWords, { key: 'update-on-delete' }>['params'];

/** Findings that already speak of the rollout and what it waits for. */
const SPEAKS_OF_THE_ROLLOUT: ReadonlySet<FindingCode> = new Set([
  'RolloutSurgeDeadlock',
  'RolloutStuck',
  'RolloutAtRisk',
  'RolloutProgressing',
]);

/** How many pod names the headline lists before "…". */
const NAMED = 5;

/** The findings, with the wait for deletions said where the workload's update waits for one. */
export function withOnDeleteSaid(ctx: AnalysisContext, findings: readonly Draft[]): Draft[] {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  if (kind.strategy(kind.object(snapshot)).type !== 'OnDelete') return [...findings];
  if (kind.underWay(snapshot) === undefined) return [...findings];
  if (findings.some((f) => SPEAKS_OF_THE_ROLLOUT.has(f.code))) return [...findings];
  const { pods, byOrdinal } = podsToReplace(snapshot);
  const first = pods[0]?.metadata.name;
  if (first === undefined) return [...findings];
  const { name, namespace } = snapshot.target;
  const names = pods.map((p) => p.metadata.name ?? '');
  const params: OnDeleteParams = {
    ref: `${snapshot.target.kind.toLowerCase()}/${name}`,
    old: pods.length,
    total: snapshot.pods.filter((p) => !isTerminal(p)).length,
    pods: names.length > NAMED ? `${names.slice(0, NAMED).join(', ')}, …` : names.join(', '),
    first,
    command: codeSpan(`kubectl delete pod ${first} -n ${namespace}`),
    byOrdinal,
  };
  return [...findings, onDeleteFinding(params)];
}

function onDeleteFinding(p: OnDeleteParams): Draft {
  const order = p.byOrdinal
    ? `one at a time from the highest ordinal down, as the controller's own rolling update would (${p.first} first: ${p.command})`
    : `node by node (${p.first} first: ${p.command})`;
  return {
    code: 'RolloutWaitsForDeletion',
    severity: 'info',
    summary: `${p.ref} has an update waiting: ${p.old} of ${p.total} pods still run an old revision (${p.pods}), and under updateStrategy OnDelete the controller replaces a pod only once someone deletes it. Nothing rolls the update out by itself.`,
    explanation: `To roll it out, delete the old pods ${order}, waiting for each replacement to be Ready; or set spec.updateStrategy to RollingUpdate and let the controller replace them.`,
    evidence: [
      {
        type: 'note',
        text: `updateStrategy: OnDelete; on an old revision: ${p.pods}.`,
      },
    ],
    says: { key: 'update-on-delete', params: p },
  };
}
