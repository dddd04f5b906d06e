/**
 * RolloutPaused in Korean (issue 65.1): an Argo Rollout held at a pause (by its step, a
 * timed step before and after its end, by hand) and a Deployment paused mid-rollout say
 * their headline and explanation from the finding's `says`, with codes, reasons, fields
 * and commands as written; English stays the engine's own sentences.
 */
import { describe, expect, it } from 'vitest';
import type { ArgoRollout } from '../../src/diagnosis/k8s-argo.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';
import { findingExplanation, findingSummary } from '../../src/message/words/finding.js';
import { argoPausedWords } from '../../src/message/words/paused.js';
import { renderText } from '../../src/report/text.js';
import { makeNode } from '../support/k8s-builders.js';
import { pendingRolloutSnapshot, PORTS_MESSAGE, rollout } from '../support/rollout-scenarios.js';
import { trackerMidUpdate } from '../support/rollout-builders.js';

function argoPaused(status: Partial<NonNullable<ArgoRollout['status']>>, duration?: string, minutesIn = 0) {
  const snapshot = trackerMidUpdate();
  const object = workloadKind(snapshot).object(snapshot) as ArgoRollout;
  object.status = { ...object.status, ...status };
  const steps = object.spec.strategy?.canary?.steps;
  if (duration && steps && object.status) {
    steps[1] = { pause: { duration } };
    const start = new Date(Date.parse(snapshot.capturedAt) - minutesIn * 60_000).toISOString();
    object.status.pauseConditions = [{ reason: 'CanaryPauseStep', startTime: start }];
  }
  snapshot.pods = snapshot.pods.filter((p) => p.status?.phase === 'Running');
  snapshot.events = [];
  return { snapshot, object };
}

/** Our code spans (text/code-span.ts) as the terminal shows them. */
const shown = (s: string | undefined): string => (s ?? '').replace(/[\uE000\uE001]/g, '`');

const pausedOf = (d: ReturnType<typeof diagnose>) => {
  const f = d.findings.find((x) => x.code === 'RolloutPaused');
  if (!f) throw new Error('no RolloutPaused');
  return f;
};

function ingressPaused(maxUnavailable: number) {
  const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
  const parts = rollout('ingress', {
    oldNodes: ['edge-1', 'edge-2', 'edge-3'],
    ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
    podSpec: { nodeSelector: { pool: 'edge' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable } },
  });
  parts.deployment.spec.paused = true;
  return diagnose(
    pendingRolloutSnapshot(parts, nodes, PORTS_MESSAGE, { guards: { podDisruptionBudgets: [] } }),
  );
}

describe('an Argo Rollout paused, in Korean', () => {
  const canary = {
    phase: 'Paused',
    message: 'CanaryPauseStep',
    currentStepIndex: 1,
    pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-11-24T10:00:00Z' }],
  };

  it('at a canary pause step: the step, the reason and the promote or abort', () => {
    const f = pausedOf(diagnose(argoPaused(canary).snapshot));
    expect(findingSummary(f, 'ko')).toBe(
      'rollout/tracker 롤아웃이 일시 중지되어 있습니다(CanaryPauseStep, 단계 2/2, 2026-11-24T10:00:00Z부터). 클러스터가 아니라 사람의 결정을 기다립니다.',
    );
    expect(shown(findingExplanation(f, 'ko'))).toBe(
      'Argo Rollouts 컨트롤러가 의도적으로 업데이트를 멈추고 있습니다. 카나리의 일시 중지 단계에 도달해서 승격(`kubectl argo rollouts promote tracker`) 또는 중단(`kubectl argo rollouts abort tracker`)을 기다립니다. 일시 중지 자체는 문제가 아닙니다. 그 뒤에 업데이트가 끝날 수 있는지는 다른 판정이 알려 줍니다.',
    );
    // English is the engine's own sentence, and the catalogue's English says the same.
    expect(findingSummary(f, 'en')).toBe(f.summary);
    const en = f.says?.key === 'argo-paused' ? argoPausedWords(f.says.params, 'en') : undefined;
    expect(en?.summary).toBe(f.summary);
    expect(shown(en?.explanation)).toBe(f.explanation);
  });

  it('a timed pause: when the controller goes on, and a pause past its end', () => {
    const timed = { phase: 'Paused', message: 'CanaryPauseStep', currentStepIndex: 1 };
    const before = pausedOf(diagnose(argoPaused(timed, '1h', 20).snapshot));
    expect(findingSummary(before, 'ko')).toBe(
      'rollout/tracker 롤아웃이 일시 중지되어 있습니다(CanaryPauseStep, 단계 2/2, 2026-11-22T02:40:00.000Z부터). 시간이 지정된 일시 중지(1h)이므로 2026-11-22 03:40 UTC에(40m 뒤) 컨트롤러가 스스로 다음 단계로 진행합니다.',
    );
    expect(findingExplanation(before, 'ko')).toContain('아무도 손대지 않아도 다음 단계로 진행합니다');
    const after = pausedOf(diagnose(argoPaused(timed, '1h', 120).snapshot));
    expect(findingSummary(after, 'ko')).toBe(
      'rollout/tracker 롤아웃이 일시 중지되어 있습니다(CanaryPauseStep, 단계 2/2, 2026-11-22T01:00:00.000Z부터). 시간이 지정된 일시 중지(1h)가 2026-11-22 02:00 UTC에 끝났는데(읽은 시점보다 1h 전), 아직 다음 단계로 진행하지 않았습니다.',
    );
    expect(findingExplanation(after, 'ko')).toContain('컨트롤러 파드가 실행 중인지');
    for (const f of [before, after])
      expect(f.says?.key === 'argo-paused' && argoPausedWords(f.says.params, 'en').summary).toBe(f.summary);
  });

  it('paused by hand: the resume', () => {
    const { snapshot, object } = argoPaused(canary);
    object.spec.paused = true;
    const f = pausedOf(diagnose(snapshot));
    expect(findingSummary(f, 'ko')).toContain('일시 중지되어 있습니다(spec.paused');
    expect(shown(findingExplanation(f, 'ko'))).toContain(
      '사람이 직접 일시 중지했습니다(spec.paused). `kubectl argo rollouts resume tracker` 명령으로 재개합니다.',
    );
  });
});

describe('a Deployment paused mid-rollout, in Korean', () => {
  it('what the pause holds, and that resuming finishes it', () => {
    const out = renderText(ingressPaused(1), { lang: 'ko' });
    expect(out).toContain(
      '  [정보] RolloutPaused: deployment/ingress 롤아웃이 진행 도중 일시 중지되어 있습니다(spec.paused). 레플리카 3개 중 3개가 사용 가능합니다. 기존 ReplicaSet(ingress-6d4cf56db6): 파드 3개(Ready 3개); 새 ReplicaSet(ingress-7b9f8c5d4f): 파드 1개(Pending 1개). 재개하기 전에는 롤아웃이 진행되지 않습니다. 재개하면 컨트롤러가 스스로 롤아웃을 끝냅니다.',
    );
    expect(out).toContain('   일시 중지된 Deployment는 새 템플릿을 배포하지 않습니다.');
    expect(out).toContain('재개한 것으로 보고 따라가면 컨트롤러가 롤아웃을 끝냅니다.');
    expect(renderText(ingressPaused(1))).toContain(
      'is paused mid-rollout (spec.paused), 3 of 3 replicas available',
    );
  });

  it('resuming meets what stops it, named by its code', () => {
    const f = pausedOf(ingressPaused(0));
    expect(findingSummary(f, 'ko')).toContain(
      '재개해도 롤아웃이 끝나지 않습니다: 새 파드 1개가 들어갈 자리가 없습니다. 기존 파드가 자리를 점유하고 있습니다(RolloutSurgeDeadlock).',
    );
    expect(shown(findingExplanation(f, 'ko'))).toContain(
      '`kubectl rollout resume deployment/ingress -n vision` 명령을 실행하기 전까지',
    );
    expect(shown(findingExplanation(f, 'ko'))).toContain('롤아웃을 막는 원인(다른 판정)을 재개하기 전에');
  });
});
