/**
 * A pod held back before scheduling gets no FailedScheduling event: it must read as
 * "waiting before scheduling", never as no problem (issue 13 item 7).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { makeEvent, makeNode, makeSnapshot } from '../support/k8s-builders.js';
import { claimTemplate } from '../support/dra-builders.js';
import { rollout, unschedulablePod } from '../support/rollout-scenarios.js';

function heldRollout(hold: (pod: Pod) => void): ReturnType<typeof makeSnapshot> {
  const parts = rollout('trainer', { oldNodes: ['gpu-node-1'] });
  const pending = parts.newPods[0] as Pod;
  pending.status = {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    ],
  };
  hold(pending);
  return makeSnapshot({
    deployment: parts.deployment,
    replicaSets: [parts.newRs, parts.oldRs],
    pods: [...parts.oldPods, pending],
    nodes: [makeNode('gpu-node-1'), makeNode('gpu-node-2')],
  });
}

describe('pods held before scheduling', () => {
  it('a scheduling gate still set: waiting before scheduling, with the gate named', () => {
    const snapshot = heldRollout((pod) => {
      pod.spec.schedulingGates = [{ name: 'kueue.x-k8s.io/admission' }];
    });
    const [finding, ...rest] = diagnose(snapshot).findings;
    expect(rest).toEqual([]);
    expect(finding?.code).toBe('Unschedulable');
    expect(finding?.severity).toBe('warning');
    expect(finding?.summary).toBe(
      'Pod trainer-7b9f8c5d4f-h8v2n is waiting before scheduling: scheduling gate kueue.x-k8s.io/admission is still set.',
    );
    expect(finding?.explanation).toContain('no FailedScheduling event');
  });

  it('look-alike: a claim entry listed without a claim name (none was needed): not held back', () => {
    const snapshot = heldRollout((pod) => {
      pod.spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'a100-single' }];
      pod.status = { phase: 'Pending', resourceClaimStatuses: [{ name: 'gpu' }] };
    });
    const text = JSON.stringify(diagnose(snapshot).findings);
    expect(text).not.toContain('waiting before scheduling');
    expect(text).not.toContain('has not been created yet');
  });

  it('a claim from a ResourceClaimTemplate not created yet: waiting, the template named', () => {
    const snapshot = heldRollout((pod) => {
      pod.spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'a100-single' }];
      pod.status = { phase: 'Pending' };
    });
    const [finding] = diagnose(snapshot).findings;
    expect(finding?.summary).toContain(
      'waiting before scheduling: its ResourceClaim gpu (from template a100-single) has not been created yet',
    );
    expect(finding?.explanation).toContain('ResourceClaimTemplate a100-single exists');
  });

  describe('a claim whose template the resourceclaim controller cannot find', () => {
    const missing = (pod: Pod): ReturnType<typeof makeEvent> =>
      makeEvent(
        {
          kind: 'Pod',
          name: pod.metadata.name ?? '',
          namespace: pod.metadata.namespace ?? '',
          uid: pod.metadata.uid ?? '',
        },
        'FailedResourceClaimCreation',
        'PodResourceClaim gpu: resource claim template "a100-single": resourceclaimtemplate.resource.k8s.io "a100-single" not found',
        { type: 'Warning', component: 'resource_claim', count: 7 },
      );
    const held = (): { snapshot: ReturnType<typeof makeSnapshot>; pod: Pod } => {
      let pod: Pod | undefined;
      const snapshot = heldRollout((p) => {
        p.spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'a100-single' }];
        p.status = { phase: 'Pending' };
        pod = p;
      });
      if (!pod) throw new Error('no pod');
      // DRA read, and no such template among them.
      return { snapshot: { ...snapshot, dra: { claims: [], templates: [], slices: [], classes: [] } }, pod };
    };

    it('the FailedResourceClaimCreation event read: says the template is missing and quotes the event', () => {
      const { snapshot, pod } = held();
      const [finding] = diagnose({ ...snapshot, events: [missing(pod)] }).findings;
      expect(finding?.summary).toContain(
        'ResourceClaimTemplate a100-single does not exist: the resourceclaim controller says "PodResourceClaim gpu: resource claim template "a100-single": resourceclaimtemplate.resource.k8s.io "a100-single" not found"',
      );
      expect(finding?.explanation).toContain('create ResourceClaimTemplate a100-single in namespace');
      expect(finding?.explanation).not.toContain('check that');
    });

    it('events not read: says which read settles it, never that the template is missing', () => {
      const { snapshot } = held();
      const unread = {
        ...snapshot,
        coverage: { ...snapshot.coverage, events: 'unread' as const, dra: undefined },
        dra: undefined,
      };
      const [finding] = diagnose(unread).findings;
      expect(finding?.summary).not.toContain('does not exist');
      expect(finding?.explanation).toContain("the pod's events were not read");
      expect(finding?.explanation).toContain('reason=FailedResourceClaimCreation');
      expect(finding?.explanation).toContain('kubectl get resourceclaimtemplate a100-single');
    });

    it('look-alike: the event is older than the template, which exists now: the next retry creates the claim', () => {
      const { snapshot, pod } = held();
      const withTemplate = {
        ...snapshot,
        events: [missing(pod)],
        dra: {
          claims: [],
          slices: [],
          classes: [],
          templates: [
            {
              ...claimTemplate(pod.metadata.namespace ?? ''),
              metadata: { ...claimTemplate(pod.metadata.namespace ?? '').metadata, name: 'a100-single' },
            },
          ],
        },
      };
      const [finding] = diagnose(withTemplate).findings;
      expect(finding?.summary).toContain('but ResourceClaimTemplate a100-single exists now');
      expect(finding?.summary).not.toContain('does not exist');
    });
  });

  it('look-alike: a created claim the scheduler refused is judged from its message, not as held back', () => {
    let refused: ReturnType<typeof unschedulablePod>['event'] | undefined;
    const snapshot = heldRollout((pod) => {
      pod.spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'a100-single' }];
      refused = unschedulablePod(
        pod,
        '0/2 nodes are available: 2 cannot allocate all claims. still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      ).event;
      pod.status = {
        ...pod.status,
        resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'trainer-7b9f8c5d4f-h8v2n-gpu-x7k2q' }],
      };
    });
    const result = diagnose({ ...snapshot, events: refused ? [refused] : [] });
    expect(result.findings.map((f) => f.summary).join('\n')).not.toContain('waiting before scheduling');
    // The scheduler speaks of claims; with no DRA object read that is unknown, not "the snapshot shows room".
    expect(result.findings[0]?.code).toBe('IncompleteEvidence');
    expect(JSON.stringify(result.findings[0])).toContain('kubectl get resourceclaims -A');
  });
});
