/**
 * Pods that are never created (issue 29.1): the refusal wordings of quota, PodSecurity,
 * webhooks, ValidatingAdmissionPolicy, LimitRange and ServiceAccount admission, and the
 * verdicts on snapshots without a single new pod: AdmissionDenied and QuotaExceeded
 * carry no plan; an old refusal that passed proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { classifyRefusal } from '../../src/diagnosis/base/create-refusal.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import { makeEvent, makeNode, makeSnapshot } from '../support/k8s-builders.js';
import { rollout } from '../support/rollout-scenarios.js';

const PSS =
  'pods "web-7b9f8c5d4f-" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true)';

describe('classifyRefusal', () => {
  it('reads a quota refusal with the resources it names, through the event wrapping', () => {
    const refusal = classifyRefusal(
      '(combined from similar events): Error creating: pods "api-5d-" is forbidden: exceeded quota: compute, requested: limits.memory=1Gi,requests.cpu=200m, used: limits.memory=4Gi,requests.cpu=400m, limited: limits.memory=4Gi,requests.cpu=400m',
    );
    expect(refusal).toEqual({
      kind: 'quota-exceeded',
      quota: 'compute',
      requested: { 'limits.memory': '1Gi', 'requests.cpu': '200m' },
      used: { 'limits.memory': '4Gi', 'requests.cpu': '400m' },
      limited: { 'limits.memory': '4Gi', 'requests.cpu': '400m' },
    });
  });

  it('splits PodSecurity violations at top-level commas and names the containers', () => {
    const refusal = classifyRefusal(`Error creating: ${PSS}`);
    expect(refusal.kind).toBe('pod-security');
    if (refusal.kind !== 'pod-security') return;
    expect(refusal.policy).toBe('restricted:latest');
    expect(refusal.violations).toHaveLength(3);
    expect(refusal.violations[1]).toBe(
      'unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"])',
    );
    expect(refusal.containers).toEqual(['web']);
  });

  it.each([
    [
      'pods "x-" is forbidden: admission webhook "validation.gatekeeper.sh" denied the request: [no-latest] image tag latest is not allowed',
      {
        kind: 'webhook',
        webhook: 'validation.gatekeeper.sh',
        detail: '[no-latest] image tag latest is not allowed',
      },
    ],
    [
      'Internal error occurred: failed calling webhook "policy.example.com": failed to call webhook: Post "https://policy.svc:443/validate": dial tcp 10.0.0.1:443: connect: connection refused',
      { kind: 'webhook-unreachable', webhook: 'policy.example.com' },
    ],
    [
      "pods \"x-\" is forbidden: ValidatingAdmissionPolicy 'require-limits' with binding 'require-limits-prod' denied request: every container needs limits",
      {
        kind: 'admission-policy',
        policy: 'require-limits',
        binding: 'require-limits-prod',
        detail: 'every container needs limits',
      },
    ],
    [
      'pods "x-" is forbidden: [maximum cpu usage per Container is 2, but limit is 4, maximum memory usage per Container is 1Gi, but limit is 2Gi]',
      { kind: 'limit-range' },
    ],
    [
      'pods "x-" is forbidden: error looking up service account shop/builder: serviceaccount "builder" not found',
      { kind: 'service-account', serviceAccount: 'builder' },
    ],
    [
      'pods "x-" is forbidden: failed quota: compute: must specify limits.cpu for: web; requests.cpu for: web',
      {
        kind: 'quota-unspecified',
        quota: 'compute',
        detail: 'must specify limits.cpu for: web; requests.cpu for: web',
      },
    ],
    [
      'pods "x-" is forbidden: status unknown for quota: compute',
      { kind: 'quota-unknown', quota: 'compute' },
    ],
  ])('classifies %s', (message, expected) => {
    expect(classifyRefusal(message)).toMatchObject(expected);
  });
});

/** A rollout whose new ReplicaSet has no pod at all: the API server refused it. */
function refusedRollout(message: string, options: { condition?: boolean; eventCount?: number } = {}) {
  const parts = rollout('web', { oldNodes: ['node-a', 'node-b'] });
  const { newRs } = parts;
  newRs.status = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    ...(options.condition === false
      ? {}
      : { conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message }] }),
  };
  const event = makeEvent(
    { kind: 'ReplicaSet', name: newRs.metadata.name, namespace: 'vision', uid: newRs.metadata.uid },
    'FailedCreate',
    `Error creating: ${message}`,
    { component: 'replicaset-controller', count: options.eventCount ?? 12 },
  );
  parts.deployment.status = { ...parts.deployment.status, replicas: 2, updatedReplicas: 0 };
  return { parts, event };
}

/** The rollout diagnosed with its old pods only (the new ReplicaSet has none) and `events`. */
/**
 * `othersUnread`: the quota's other users are not in the snapshot, so its pods of the
 * namespace count as not read (with them read, the quota is recounted from them).
 */
function diagnoseRefused(
  parts: ReturnType<typeof refusedRollout>['parts'],
  events: KubeEvent[],
  othersUnread = false,
) {
  const snapshot = makeSnapshot({
    deployment: parts.deployment,
    replicaSets: [parts.newRs, parts.oldRs],
    pods: parts.oldPods,
    events,
  });
  if (othersUnread) snapshot.coverage = { ...snapshot.coverage, podsReadOn: [] };
  return diagnose(snapshot);
}

function cpuPods(pods: Pod[], cpu: string): void {
  for (const p of pods) {
    const c = p.spec.containers[0];
    if (c) c.resources = { requests: { cpu } };
  }
}

describe('refused pods: verdicts', () => {
  it('PodSecurity: AdmissionDenied naming the policy and the container, and no plan', () => {
    const { parts, event } = refusedRollout(PSS);
    const diagnosis = diagnoseRefused(parts, [event]);
    const [first] = diagnosis.findings;
    expect(first?.code).toBe('AdmissionDenied');
    expect(first?.summary).toContain('PodSecurity "restricted:latest" refuses the template (container web)');
    expect(first?.summary).toContain('and 2 more');
    expect(first?.remediations).toEqual([]);
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual([]);
  });

  it('a webhook denial read from the events alone (no condition) still counts while the ReplicaSet is short', () => {
    const { parts, event } = refusedRollout(
      'pods "web-7b9f8c5d4f-" is forbidden: admission webhook "images.example.com" denied the request: unsigned image',
      { condition: false },
    );
    const diagnosis = diagnoseRefused(parts, [event]);
    expect(diagnosis.findings[0]?.code).toBe('AdmissionDenied');
    expect(diagnosis.findings[0]?.summary).toContain(
      'admission webhook "images.example.com" denies them: unsigned image',
    );
  });

  it('an old refusal followed by a successful create proves nothing', () => {
    const { parts, event } = refusedRollout(
      'pods "web-" is forbidden: admission webhook "w" denied the request: no',
      {
        condition: false,
      },
    );
    const created = makeEvent(
      {
        kind: 'ReplicaSet',
        name: parts.newRs.metadata.name,
        namespace: 'vision',
        uid: parts.newRs.metadata.uid,
      },
      'SuccessfulCreate',
      'Created pod: web-7b9f8c5d4f-h8v2n',
      { component: 'replicaset-controller' },
    );
    created.lastTimestamp = '2026-11-22T02:59:50Z';
    const diagnosis = diagnoseRefused(parts, [event, created]);
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('AdmissionDenied');
  });

  it('a quota the old pods fill, surging with maxUnavailable 0: the deadlock, with the quota as evidence', () => {
    const { parts, event } = refusedRollout(
      'pods "web-7b9f8c5d4f-" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1, limited: requests.cpu=1',
    );
    cpuPods(parts.oldPods, '500m');
    const diagnosis = diagnoseRefused(parts, [event]);
    const [first] = diagnosis.findings;
    expect(first?.code).toBe('RolloutSurgeDeadlock');
    expect(first?.evidence).toContainEqual({
      type: 'quota',
      quota: 'compute',
      rows: [{ resource: 'requests.cpu', hard: '1', used: '1', requested: '500m', ours: '1', others: '0' }],
    });
    const kinds = diagnosis.remediations.filter((p) => first?.remediations.includes(p.id)).map((p) => p.kind);
    expect(kinds).toContain('set-rolling-update');
    expect(kinds).not.toContain('rollout-restart');
    // Nothing else is counted: only then is the quota "filled by this workload's own pods".
    expect(first?.explanation).toContain("The quota is filled by this workload's own pods");
    expect(first?.explanation).toContain(
      'the ReplicaSet controller records FailedCreate and ReplicaFailure=True on',
    );
  });

  it('a quota other pods hold most of is not said to be filled by this workload (issue 55)', () => {
    // 3 cpu used: 1 by the two old pods, 2 by another workload; the whole Deployment
    // (2 × 500m) still fits beside it, so it is the deadlock, but a shared quota.
    const { parts, event } = refusedRollout(
      'pods "web-7b9f8c5d4f-" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=3, limited: requests.cpu=3',
    );
    cpuPods(parts.oldPods, '500m');
    const diagnosis = diagnoseRefused(parts, [event], true);
    const [first] = diagnosis.findings;
    expect(first?.code).toBe('RolloutSurgeDeadlock');
    expect(first?.explanation).not.toContain('filled by this workload');
    expect(first?.explanation).toContain(
      "The quota is shared: this workload's pods use 1 of the 3 requests.cpu it counts, other pods 2",
    );
  });

  it("a pod of another namespace is not charged to the namespace's quota: still the deadlock with its plan", () => {
    const { parts, event } = refusedRollout(
      'pods "web-7b9f8c5d4f-" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1, limited: requests.cpu=1',
    );
    cpuPods(parts.oldPods, '500m');
    const foreign = structuredClone(parts.oldPods[0] as Pod);
    foreign.metadata = { ...foreign.metadata, namespace: 'batch', name: 'batch-0', uid: 'batch-0' };
    cpuPods([foreign], '2');
    // The template asks what the refusal says it asked (500m).
    for (const template of [parts.deployment.spec.template, parts.newRs.spec.template]) {
      const c = template?.spec.containers[0];
      if (c) c.resources = { requests: { cpu: '500m' } };
    }
    const diagnosis = diagnose(
      makeSnapshot({
        deployment: parts.deployment,
        replicaSets: [parts.newRs, parts.oldRs],
        pods: parts.oldPods,
        otherPods: [foreign],
        events: [event],
        // Every node read, so the forward model runs (it recounts the quota from the pods).
        nodes: [...new Set(parts.oldPods.map((p) => p.spec.nodeName ?? ''))].map((n) =>
          makeNode(n, { allocatable: { cpu: '8' } }),
        ),
      }),
    );
    expect(diagnosis.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    expect(diagnosis.remediations.map((p) => p.kind)).toContain('set-rolling-update');
  });

  it('a quota that other workloads and the bigger new template overfill is QuotaExceeded, never a strategy change', () => {
    const { parts, event } = refusedRollout(
      'pods "web-7b9f8c5d4f-" is forbidden: exceeded quota: compute, requested: requests.cpu=1, used: requests.cpu=3, limited: requests.cpu=3',
    );
    cpuPods(parts.oldPods, '500m');
    const diagnosis = diagnoseRefused(parts, [event], true);
    const [first] = diagnosis.findings;
    expect(first?.code).toBe('QuotaExceeded');
    expect(first?.explanation).toContain(
      'requests.cpu: 2 × 1 for this workload plus 2 used by others is more than the hard limit 3',
    );
    expect(diagnosis.remediations).toEqual([]);
  });
});
