/**
 * The rules `check`'s SARIF declares, one per finding code it can report: what GitHub
 * code scanning shows at the top of an alert (shortDescription, fullDescription), the
 * help it shows under it (markdown, with the fix) and a page per code in docs/findings/.
 * Our own words only: nothing here comes from a manifest or the cluster.
 */
import type { FindingCode } from '../diagnosis/finding.js';

interface RuleText {
  short: string;
  full: string;
  /** Markdown: what it means and how to fix it. */
  help: string;
  level: 'error' | 'warning' | 'note';
}

/** Where the finding pages live (docs/findings/CODE.md in the repository). */
export const FINDING_DOCS = 'https://github.com/rollout-doctor/rollout-doctor/blob/main/docs/findings';

export const CHECK_RULES = {
  RolloutSurgeDeadlock: {
    short: 'A rollout that can never finish: the new pods need room the old pods hold.',
    full: 'The new pods need a resource the old pods hold (a GPU, a host port, a volume, a node), and the strategy keeps every old pod until a new one is ready, so no new pod is ever placed.',
    help: [
      'The rollout this change starts can never finish: each new pod needs room (a GPU, a host port, a ReadWriteOnce volume, a node of its own) that an old pod of the same workload holds, and the strategy keeps the old pods until new ones are Ready.',
      '',
      '**Fix:** let the rollout take an old pod down first. For a Deployment or Argo Rollout set `strategy.rollingUpdate.maxUnavailable` to at least 1 (and `maxSurge` to 0 where nothing is free), for a DaemonSet `updateStrategy.rollingUpdate.maxSurge: 0` with `maxUnavailable: 1`. `check` prints the exact change it proved, as a merge into the object.',
    ].join('\n'),
    level: 'error',
  },
  Unschedulable: {
    short: 'A rollout that can never finish: the new pods fit no node, whatever the strategy.',
    full: 'No node can take the new pods even with this workload’s old pods gone: not enough of a resource, taints, node selectors or affinity that no node meets.',
    help: [
      'The new pod template asks for something no node offers, even after this workload’s old pods leave: a request larger than any node’s free capacity, a taint it does not tolerate, a nodeSelector or affinity no node matches.',
      '',
      '**Fix:** lower the request or correct the selector in the manifest, or add the capacity (a node, a node group) before applying.',
    ].join('\n'),
    level: 'error',
  },
  QuotaExceeded: {
    short: 'A rollout that can never finish: a ResourceQuota refuses the new pods.',
    full: 'The namespace’s ResourceQuota has no room left for the new pods, and nothing the rollout does frees it.',
    help: [
      'A ResourceQuota in the namespace refuses the new pods: what is already used plus what the new pods ask for passes its hard limit, and the rollout frees nothing first.',
      '',
      '**Fix:** raise the quota, lower the pods’ requests, or let the rollout take old pods down first (`maxUnavailable` at least 1, `maxSurge` 0) so their share returns before the new pods come.',
    ].join('\n'),
    level: 'error',
  },
  AdmissionDenied: {
    short: 'The API server would refuse this object or its pods at admission.',
    full: 'A LimitRange or ResourceQuota makes admission refuse the pods as written (a request above a limit, a quota that needs a request the template does not set), or the API server refuses the object itself (a changed selector, a StatefulSet field an update may not change, a selector that does not select the template).',
    help: [
      'Admission, as the API server orders it before any scheduling, refuses the pods: a LimitRange’s bounds, or a ResourceQuota that needs a request the containers do not set. The rollout would create no pod at all.',
      '',
      'Or the API server’s own validation refuses the apply, and nothing is stored: apps/v1 keeps a selector for the object’s life, a StatefulSet’s spec may change only in replicas, ordinals, template, updateStrategy, revisionHistoryLimit, persistentVolumeClaimRetentionPolicy and minReadySeconds, and a selector must select its template’s labels.',
      '',
      '**Fix:** set the requests and limits the named LimitRange or quota asks for in every container. For a refused apply, keep the fixed fields as they are, or delete the object with `--cascade=orphan` and apply the new one.',
    ].join('\n'),
    level: 'error',
  },
  RolloutStuck: {
    short: 'A rollout that will not finish: its new pods do not become Ready.',
    full: 'The new pods are placed, but they do not become Ready in the cluster as it is (they crash, or the revision already fails there).',
    help: [
      'The pods this change creates would be placed but not become Ready, so the rollout stops at its first step and, for a Deployment, its progress deadline passes.',
      '',
      '**Fix:** find why the new revision fails (`rollout-doctor diagnose` on the live workload names it) before applying it again.',
    ].join('\n'),
    level: 'error',
  },
  IncompleteEvidence: {
    short: 'Whether the rollout finishes is not known.',
    full: 'Part of the cluster was not read (access, time, a sampled read), the apply may keep a live field that decides the outcome, or the model does not follow this update: check does not guess.',
    help: [
      '`check` could not tell whether this rollout finishes, and it never answers "will finish" where it cannot know: part of the cluster was not read (the message says what), the apply keeps or drops a field the manifest leaves out and the outcome turns on which, or the model does not follow this kind of update.',
      '',
      '**Fix:** give the identity that runs `check` read access to what the message names, or write the field out in the manifest. Where the team accepts the doubt, `--allow-unknown` makes it exit 0.',
    ].join('\n'),
    level: 'warning',
  },
  ScaleUpNeeded: {
    short: 'The rollout finishes only once the cluster adds a node.',
    full: 'No node there is now can take the new pods, and a node group the cluster autoscaler may grow (or a Karpenter NodePool) would: the rollout waits for that scale-up, usually a few minutes.',
    help: [
      'The new pods fit no node the cluster has now. A node group the cluster autoscaler may still grow (below its maximum, healthy, not backing off), or a Karpenter NodePool below its limits, adds a node like the ones it has, and the rollout finishes once it joins. Until then the new pods are Pending (FailedScheduling, then TriggeredScaleUp).',
      '',
      '**Fix:** none is needed if waiting for the node is fine; else lower the request, or raise the node group before applying. If the scale-up fails (a cloud quota, no capacity in the zone), the rollout waits until it succeeds.',
    ].join('\n'),
    level: 'note',
  },
  PreemptionUnderWay: {
    short: 'The rollout finishes, but its new pods preempt pods of lower priority first.',
    full: "The new template raises the pods' priority: the scheduler preempts pods of lower priority for them, this workload's own old pods included, before their replacements are Ready.",
    help: [
      "The rollout finishes, but not the way its strategy says: the new pods outrank pods that hold the room they need (this workload's old pods, or other workloads' pods of lower priority), and the scheduler preempts those rather than wait. A preempted old pod stops serving before its replacement is Ready; where every old pod is preempted, that is an outage.",
      '',
      '**Fix:** none is needed if the dip is fine. Otherwise keep the old priority for this change and raise it in a later one, or make room first so nothing is preempted.',
    ].join('\n'),
    level: 'warning',
  },
} as const satisfies Partial<Record<FindingCode, RuleText>>;

export type CheckRuleId = keyof typeof CHECK_RULES;

/** A code check does not document (a finding a later change adds): declared, with the index page. */
export function ruleText(code: string): RuleText & { page: string } {
  const known = (CHECK_RULES as Record<string, RuleText | undefined>)[code];
  if (known) return { ...known, page: `${FINDING_DOCS}/${code}.md` };
  return {
    short: `rollout-doctor finding ${code}.`,
    full: `rollout-doctor finding ${code}.`,
    help: 'A finding of rollout-doctor; the list of findings says more.\n\n**Fix:** run `rollout-doctor diagnose` on the live workload for the evidence and the plans it proves.',
    level: 'warning',
    page: `${FINDING_DOCS}/README.md`,
  };
}
