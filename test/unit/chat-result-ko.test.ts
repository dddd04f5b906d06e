/**
 * The seed incidents' threads in Korean, as the chat port's model says them (the same
 * for Slack and Teams): the result message (verdict, the note line, the recommended fix,
 * what is in the thread), an approval, the buttons and their confirm step, and the thread
 * report's own lines. Reviewed fixtures: the expected Korean is written here. Evidence
 * lines and the engine's impact and proof sentences are still English (CHANGELOG).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Part } from '../../src/chat/model.js';
import { plainText } from '../../src/message/rich.js';
import { resultMessage, type PlanView } from '../../src/chat/use-cases/result.js';
import { outcomeMessage } from '../../src/chat/use-cases/outcome.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { crashScenario } from '../support/crash-fixtures.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const incidentA = diagnose(
  assembleSnapshot(
    { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' },
    loadObjects(readFileSync(FIXTURE, 'utf8')),
  ),
);
const incidentB = diagnose(crashScenario().snapshot);
const APPROVED_AT = Date.parse('2026-11-22T03:04:00Z');

function render(diagnosis: Diagnosis, options: { approved?: boolean; lang?: 'en' | 'ko' } = {}) {
  const plans: Record<string, PlanView> = {};
  diagnosis.remediations.forEach((p, i) => {
    plans[p.id] =
      i === 0 && options.approved
        ? { state: 'claimed', approvers: ['U0DANA'], at: APPROVED_AT }
        : { state: 'open', expiresAt: APPROVED_AT + 900_000 };
  });
  const first = diagnosis.remediations[0]?.id;
  return resultMessage({
    cluster: 'prod',
    diagnosis,
    dryRuns: {},
    plans,
    requester: 'U0ASK',
    platform: 'slack',
    lang: options.lang ?? 'ko',
    ...(options.approved && first ? { approvedPlan: first } : {}),
  });
}

const texts = (parts: readonly Part[]): string[] =>
  parts.flatMap((p) =>
    p.kind === 'paragraph' || p.kind === 'note'
      ? [plainText(p.text)]
      : p.kind === 'code' && p.title
        ? [plainText(p.title)]
        : [],
  );
const buttons = (parts: readonly Part[]) =>
  parts
    .flatMap((p) => (p.kind === 'actions' ? p.buttons : []))
    .map((b) => [b.label, b.confirm?.title ?? null]);

describe('seed incident A in Korean (GPU surge deadlock)', () => {
  it('the result message: verdict, where, the recommended fix, what the thread holds, the buttons', () => {
    const { message } = render(incidentA);
    const lines = texts(message.parts);
    expect(lines[0]).toBe('RolloutSurgeDeadlock: vision-object-tracker 롤아웃이 끝나지 않습니다');
    expect(lines[1]).toBe(
      'deployment/vision-object-tracker · 네임스페이스 vision · 클러스터 prod · 2026-11-22 02:59 UTC 기준 · 관리 주체 kubectl apply(필드 매니저 kubectl-client-side-apply)',
    );
    expect(lines.find((l) => l.startsWith('권장 조치:'))?.split('\n')[0]).toBe(
      '권장 조치: 기존 파드를 먼저 내립니다: RollingUpdate maxSurge 0, maxUnavailable 1. 롤아웃을 재시작해서 멈춘 파드를 교체합니다.',
    );
    expect(lines).toContain('모든 근거, 다른 조치, 각 조치의 드라이 런과 정확한 패치가 스레드에 있습니다.');
    expect(buttons(message.parts)).toEqual([
      ['적용: set-rolling-update', 'vision-object-tracker에 set-rolling-update 조치를 적용할까요?'],
      ['적용: set-recreate', 'vision-object-tracker에 set-recreate 조치를 적용할까요?'],
      ['적용: scale-old-replicaset', 'vision-object-tracker에 scale-old-replicaset 조치를 적용할까요?'],
      ['다시 실행', null],
      ['닫기', null],
    ]);
    const confirm = message.parts.flatMap((p) => (p.kind === 'actions' ? p.buttons : []))[0]?.confirm;
    expect([confirm?.yes, confirm?.no]).toEqual(['적용', '취소']);
  });

  it('once approved: who and when, the other fixes withdrawn', () => {
    const { message } = render(incidentA, { approved: true });
    const lines = texts(message.parts);
    expect(lines).toContain('set-rolling-update: U0DANA 님이 2026-11-22 03:04 UTC에 승인했습니다');
    expect(lines).toContain('다른 조치는 철회되었습니다. 새로 진단하려면 다시 실행을 누르세요.');
    expect(buttons(message.parts)).toEqual([
      ['승인됨: set-rolling-update', null],
      ['다시 실행', null],
      ['닫기', null],
    ]);
  });

  it('the thread report: the whole verdict and why, each fix with its dry run and exact patch', () => {
    const [report] = render(incidentA).thread;
    const lines = texts(report?.parts ?? []);
    expect(plainText(report?.summary ?? [])).toBe(
      '전체 보고서: vision 네임스페이스의 deployment/vision-object-tracker',
    );
    expect(lines[0]).toBe(
      '전체 보고서: vision 네임스페이스의 deployment/vision-object-tracker (클러스터 prod, 2026-11-22 02:59 UTC 기준)',
    );
    expect(lines).toContain(
      '1. RolloutSurgeDeadlock: vision-object-tracker 롤아웃이 끝나지 않습니다: 새 파드(vision-object-tracker-7d9f8b6c5d-q4w8z)에 필요한 gpu-node-1 노드의 nvidia.com/gpu 자원을 이 Deployment의 기존 파드(vision-object-tracker-5c6b7d8f9-x7k2p)가 점유하고 있습니다. maxSurge 1, maxUnavailable 0 설정에서는 새 파드가 Ready가 되기 전에 기존 파드가 삭제되지 않습니다.',
    );
    expect(lines.filter((l) => l.startsWith('조치 ')).map((l) => l.split('\n')[0])).toEqual([
      '조치 1(권장): set-rolling-update. 기존 파드를 먼저 내립니다: RollingUpdate maxSurge 0, maxUnavailable 1. 롤아웃을 재시작해서 멈춘 파드를 교체합니다.',
      '조치 2: set-recreate. 전략을 Recreate로 바꿉니다. 롤아웃을 재시작해서 멈춘 파드를 교체합니다.',
      '조치 3: scale-old-replicaset. 기존 ReplicaSet(vision-object-tracker-5c6b7d8f9)의 replicas를 1에서 0으로 줄여 새 파드가 자리를 얻게 합니다. Deployment 스펙은 바꾸지 않습니다.',
    ]);
    expect(lines).toContain('서버 측 드라이 런');
    expect(lines).toContain('정확한 패치(strategic-merge): set-rolling-update-fbad729e29bebc20');
  });
});

describe('seed incident B in Korean (crash loop on one node)', () => {
  it('the result message and its approval', () => {
    const { message } = render(incidentB, { approved: true });
    const lines = texts(message.parts);
    expect(lines[0]).toBe(
      'CrashLoopOnNode: detector의 파드가 node-b 노드에서만 CrashLoopBackOff를 반복합니다: 파드 3개 중 1개에서 detector 컨테이너가 실패합니다(마지막 종료 코드 1, Error). 같은 템플릿이 node-a, node-c 노드에서는 Ready 상태로 잘 동작합니다.',
    );
    expect(lines).toContain('exclude-node: U0DANA 님이 2026-11-22 03:04 UTC에 승인했습니다');
    const open = texts(render(incidentB).message.parts);
    expect(open.find((l) => l.startsWith('권장 조치:'))?.split('\n')[0]).toBe(
      '권장 조치: nodeAffinity(NotIn)로 node-b 노드를 제외하고, CrashLoopBackOff 상태인 파드를 다른 노드의 새 파드로 교체합니다.',
    );
    expect(open).toContain(
      '모든 근거, 다른 조치, 각 조치의 드라이 런과 정확한 변경 내용이 스레드에 있습니다.',
    );
  });

  it('the thread report: why the node, and each fix', () => {
    const lines = texts(render(incidentB).thread[0]?.parts ?? []);
    expect(lines).toContain(
      '모든 파드가 같은 템플릿에서 만들어져 이미지, 명령, 설정이 같습니다. 그런데 node-b 노드에서만 실패하므로 원인은 애플리케이션이 아니라 노드 쪽에 있습니다. 임시 조치로 nodeAffinity의 NotIn으로 해당 노드를 제외하고, CrashLoopBackOff 상태인 파드를 교체합니다. 근본 원인(커널, 컨테이너 런타임, 하드웨어 등 노드의 차이)은 따로 찾아야 합니다.',
    );
    expect(lines.filter((l) => l.startsWith('조치 ')).map((l) => l.split('\n')[0])).toEqual([
      '조치 1(권장): exclude-node. nodeAffinity(NotIn)로 node-b 노드를 제외하고, CrashLoopBackOff 상태인 파드를 다른 노드의 새 파드로 교체합니다.',
      '조치 2: delete-pods. 파드를 삭제합니다(detector-7c9d8f5b6-q7m4z). 컨트롤러가 새 파드로 교체합니다.',
    ]);
  });
});

describe('English threads are unchanged', () => {
  it('renders the same without a language as with English', () => {
    for (const d of [incidentA, incidentB]) {
      const en = render(d, { lang: 'en' });
      const plans = Object.fromEntries(
        d.remediations.map((p) => [p.id, { state: 'open', expiresAt: APPROVED_AT + 900_000 } as PlanView]),
      );
      const none = resultMessage({
        cluster: 'prod',
        diagnosis: d,
        dryRuns: {},
        plans,
        requester: 'U0ASK',
        platform: 'slack',
      });
      expect(JSON.stringify(none)).toBe(JSON.stringify(en));
      expect(texts(en.message.parts)).toContain(
        en.message.parts.some((p) => p.kind === 'note' && plainText(p.text).includes('patch'))
          ? 'Full evidence, the other fixes, every dry run and exact patch: in the thread.'
          : 'Full evidence, the other fixes, every dry run and exact change: in the thread.',
      );
    }
  });
});

describe('what follows the approval, in Korean', () => {
  const base = {
    kind: 'remediation-outcome' as const,
    planId: 'exclude-node-9554360cc9671419',
    cluster: 'prod',
    channel: 'C0INCIDENT',
    messageTs: '1764212345.000100',
    approvedBy: ['U0DANA'],
    detail: 'deployment vision/detector: 3 of 3 replicas Ready',
  };

  it('rolled out: the stage in Korean, who approved, the worker’s detail as written', () => {
    const reply = outcomeMessage({ ...base, stage: 'rolled-out' }, 'slack', undefined, 0, {}, 'ko');
    expect(texts(reply.parts)).toEqual([
      '롤아웃 완료: deployment vision/detector: 3 of 3 replicas Ready (U0DANA 님이 승인)',
      '조치 exclude-node-9554360cc9671419 · 클러스터 prod',
    ]);
  });

  it('failed: with Re-run', () => {
    const reply = outcomeMessage(
      {
        ...base,
        stage: 'failed',
        detail: 'the API server refused the patch',
        rerun: { namespace: 'vision', name: 'detector' },
      },
      'slack',
      undefined,
      0,
      {},
      'ko',
    );
    expect(texts(reply.parts)[0]).toBe('실패: the API server refused the patch (U0DANA 님이 승인)');
    expect(buttons(reply.parts)).toEqual([['다시 실행', null]]);
  });

  it('is unchanged in English', () => {
    const reply = outcomeMessage({ ...base, stage: 'rolled-out' }, 'slack', undefined, 0, {});
    expect(texts(reply.parts)[0]).toBe(
      'rolled out: deployment vision/detector: 3 of 3 replicas Ready (approved by U0DANA)',
    );
  });
});
