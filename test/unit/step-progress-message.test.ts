import { describe, expect, it } from 'vitest';
import { remediationOutcomeMessage } from '../support/slack-run.js';
import { notifyJobSchema, type NotifyJob } from '../../src/queue/schemas.js';
import { outcomeMessage } from '../../src/chat/use-cases/outcome.js';
import { renderMessage } from '../../src/chat/slack/render.js';

const base = {
  kind: 'remediation-outcome',
  planId: 'p1',
  cluster: 'prod',
  channel: 'C1',
  messageTs: '1.1',
  stage: 'progress',
  detail: 'step 2 of 3 done',
} as const;

describe('stepped walk progress in the thread', () => {
  it('the schema takes a step as data and rejects names that are not Kubernetes names', () => {
    const ok = notifyJobSchema.safeParse({
      ...base,
      step: { phase: 'ready', step: 2, of: 3, replicaSet: 'edge-7f9', pod: 'edge-7f9-abc' },
    });
    expect(ok.success).toBe(true);
    const markup = notifyJobSchema.safeParse({
      ...base,
      step: { phase: 'ready', step: 2, of: 3, replicaSet: 'edge-7f9', pod: '<!channel>' },
    });
    expect(markup.success).toBe(false);
    const badReason = notifyJobSchema.safeParse({
      ...base,
      step: { phase: 'stopped', step: 2, of: 3, replicaSet: 'edge-7f9', reason: 'because I said so' },
    });
    expect(badReason.success).toBe(false);
    const badStep = notifyJobSchema.safeParse({
      ...base,
      step: { phase: 'ready', step: 0, of: 3, replicaSet: 'edge-7f9', pod: 'p' },
    });
    expect(badStep.success).toBe(false);
  });

  it('renders a finished step as "step i of n" naming the released pod and where the ReplicaSet stands', () => {
    const job = notifyJobSchema.parse({
      ...base,
      step: { phase: 'ready', step: 2, of: 3, replicaSet: 'edge-7f9', pod: 'edge-7f9-abc' },
    }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
    const message = remediationOutcomeMessage(job);
    const body = JSON.stringify(message.blocks);
    expect(body).toContain('step 2 of 3');
    expect(body).toContain('`edge-7f9-abc` released');
    expect(body).toContain('`edge-7f9` scaled to 1');
    expect(message.text).toBe('step 2 of 3: edge-7f9-abc released, ReplicaSet edge-7f9 at 1');
    // A progress reply offers no buttons: Undo and Re-run belong to the outcome replies.
    expect(message.blocks.some((b) => b.type === 'actions')).toBe(false);
  });

  it('renders the start of the walk (step 1 only) before its new pod is Ready', () => {
    const job = notifyJobSchema.parse({
      ...base,
      detail: 'step 1 of 3 started',
      step: { phase: 'waiting-ready', step: 1, of: 3, replicaSet: 'edge-7f9', pod: 'edge-7f9-abc' },
    }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
    const message = remediationOutcomeMessage(job);
    expect(message.text).toBe('step 1 of 3 started: edge-7f9-abc released, ReplicaSet edge-7f9 at 2');
    expect(JSON.stringify(message.blocks)).toContain('waiting for the new pod to be Ready');
    // Later waits are not messages of their own: the schema takes only step 1's.
    const later = notifyJobSchema.safeParse({
      ...base,
      step: { phase: 'waiting-ready', step: 2, of: 3, replicaSet: 'edge-7f9', pod: 'edge-7f9-abc' },
    });
    expect(later.success).toBe(false);
  });

  it('renders a stop in words of ours, from the reason code', () => {
    const job = notifyJobSchema.parse({
      ...base,
      step: { phase: 'stopped', step: 2, of: 3, replicaSet: 'edge-7f9', reason: 'ready-timeout' },
    }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
    const message = remediationOutcomeMessage(job);
    expect(JSON.stringify(message.blocks)).toContain('stopped at step 2 of 3');
    expect(message.text).toContain('no new pod became Ready within the step time limit');
  });

  it('names the pod the controller released, and the marked one when they differ', () => {
    const job = notifyJobSchema.parse({
      ...base,
      step: {
        phase: 'ready',
        step: 1,
        of: 3,
        replicaSet: 'edge-7f9',
        pod: 'edge-7f9-abc',
        marked: 'edge-7f9-def',
      },
    }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
    const body = JSON.stringify(remediationOutcomeMessage(job).blocks);
    expect(body).toContain(
      'old pod `edge-7f9-abc` released (the ReplicaSet controller chose it over `edge-7f9-def`, the pod marked to go first)',
    );
  });

  it('a pod-deletion-cost mark left on pods is said, with the command that takes it off; names are checked', () => {
    const step = {
      phase: 'marks-left',
      step: 2,
      of: 3,
      replicaSet: 'edge-7f9',
      namespace: 'edge',
      pods: ['edge-7f9-abc'],
    };
    const job = notifyJobSchema.parse({ ...base, detail: 'marks left', step }) as Extract<
      NotifyJob,
      { kind: 'remediation-outcome' }
    >;
    const message = remediationOutcomeMessage(job);
    const body = JSON.stringify(message.blocks);
    expect(body).toContain('pod-deletion-cost left on `edge-7f9-abc`');
    expect(body).toContain(
      'kubectl annotate pod edge-7f9-abc -n edge controller.kubernetes.io/pod-deletion-cost-',
    );
    expect(message.text).toBe('edge-7f9-abc still marked with controller.kubernetes.io/pod-deletion-cost');
    expect(
      notifyJobSchema.safeParse({ ...base, step: { ...step, pods: ['x; kubectl delete ns prod'] } }).success,
    ).toBe(false);
    expect(notifyJobSchema.safeParse({ ...base, step: { ...step, pods: [] } }).success).toBe(false);
  });

  it('renders the new stop reasons in words of ours', () => {
    for (const [reason, words] of [
      ['other-pod-first', 'would go first, before any marked pod'],
      ['not-released', 'released no old pod'],
    ] as const) {
      const job = notifyJobSchema.parse({
        ...base,
        step: { phase: 'stopped', step: 2, of: 3, replicaSet: 'edge-7f9', reason },
      }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
      expect(remediationOutcomeMessage(job).text).toContain(words);
    }
  });

  it('a stop because the Deployment changed says how, and what the Undo does then', () => {
    for (const [change, words] of [
      ['rolled-back', 'no Undo is offered'],
      ['new-rollout', 'only scales this old ReplicaSet down'],
      ['spec', 'the Undo still scales this ReplicaSet back'],
    ] as const) {
      const job = notifyJobSchema.parse({
        ...base,
        step: {
          phase: 'stopped',
          step: 2,
          of: 3,
          replicaSet: 'edge-7f9',
          reason: 'deployment-changed',
          change,
          generation: 7,
        },
      }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
      const text = remediationOutcomeMessage(job).text;
      expect(text).toContain('(generation 7)');
      expect(text).toContain(words);
    }
    const elsewhere = notifyJobSchema.parse({
      ...base,
      step: { phase: 'stopped', step: 2, of: 3, replicaSet: 'edge-7f9', reason: 'released-elsewhere' },
    }) as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
    expect(remediationOutcomeMessage(elsewhere).text).toContain('another old pod than the marked one went');
  });

  it('escapes names even if a job skipped the schema', () => {
    const job = {
      ...base,
      step: { phase: 'ready', step: 1, of: 3, replicaSet: 'rs`x', pod: '<!channel>' },
    } as unknown as Extract<NotifyJob, { kind: 'remediation-outcome' }>;
    const message = remediationOutcomeMessage(job);
    const all = JSON.stringify(message);
    expect(all).not.toContain('<!channel>');
    expect(all).not.toContain('rs`x');
  });

  it("in a Korean thread, every step's reply is Korean, with the same names and counts", () => {
    const ko = (step: unknown) => {
      const job = notifyJobSchema.parse({ ...base, step }) as Extract<
        NotifyJob,
        { kind: 'remediation-outcome' }
      >;
      return renderMessage(outcomeMessage(job, 'slack', undefined, Date.now(), {}, 'ko'));
    };
    const started = ko({
      phase: 'waiting-ready',
      step: 1,
      of: 3,
      replicaSet: 'edge-7f9',
      pod: 'edge-7f9-abc',
    });
    expect(started.text).toBe(
      '3단계 중 1단계 시작: edge-7f9-abc 파드 내보냄, ReplicaSet(edge-7f9) 레플리카 2',
    );
    expect(JSON.stringify(started.blocks)).toContain('새 파드가 Ready가 되기를 기다립니다');
    expect(JSON.stringify(started.blocks)).toContain('조치 p1 · 클러스터 prod');
    const instead = ko({
      phase: 'ready',
      step: 2,
      of: 3,
      replicaSet: 'edge-7f9',
      pod: 'edge-7f9-b',
      marked: 'edge-7f9-a',
    });
    expect(instead.text).toBe('3단계 중 2단계: edge-7f9-b 파드 내보냄, ReplicaSet(edge-7f9) 레플리카 1');
    expect(JSON.stringify(instead.blocks)).toContain('ReplicaSet 컨트롤러가 이 파드를 골랐습니다');
    const stopped = ko({
      phase: 'stopped',
      step: 2,
      of: 3,
      replicaSet: 'edge-7f9',
      reason: 'deployment-changed',
      change: 'rolled-back',
      generation: 7,
    });
    expect(stopped.text).toBe(
      '3단계 중 2단계에서 멈춤: 진행 중에 Deployment가 바뀌었습니다 (generation 값 7): 이 ReplicaSet의 템플릿으로 롤백되어 이 ReplicaSet이 다시 새 ReplicaSet이 되었습니다. Deployment 컨트롤러가 직접 다시 늘리므로 되돌리기는 제공하지 않습니다',
    );
    const marks = ko({
      phase: 'marks-left',
      step: 2,
      of: 3,
      replicaSet: 'edge-7f9',
      namespace: 'ml',
      pods: ['edge-7f9-a'],
    });
    expect(marks.text).toBe(
      'edge-7f9-a 파드에 controller.kubernetes.io/pod-deletion-cost 표시가 남아 있습니다',
    );
    expect(JSON.stringify(marks.blocks)).toContain('표시를 지우려면:');
    expect(JSON.stringify(marks.blocks)).toContain(
      'kubectl annotate pod edge-7f9-a -n ml controller.kubernetes.io/pod-deletion-cost-',
    );
  });
});
