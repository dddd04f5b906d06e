/**
 * The text report in Korean, for both seed incidents: reviewed fixtures (the expected
 * Korean is written here, checked against docs/glossary-ko.md and the seeds' voice).
 * Also: `--lang` and the shell's LANG choose it, `-o json` never translates, and a bad
 * `--lang` is a usage error (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run-cli.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { renderText } from '../../src/report/text.js';
import { crashScenario } from '../support/crash-fixtures.js';
import { fakeIo } from '../support/cli-io.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/dumps/incident-a-gpu-surge.yaml');
const A = ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', FIXTURE];

async function run(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number; out: string; err: string }> {
  const f = fakeIo();
  f.io.env = env;
  const status = await runCli(args, f.io);
  return { status, out: f.stdout(), err: f.stderr() };
}

describe('the text report in Korean: seed incident A (GPU surge deadlock)', () => {
  it('gives the verdict, the why and the fixes in Korean; codes, kinds, fields and patches as written', async () => {
    const { status, out } = await run([...A, '--lang', 'ko']);
    expect(status).toBe(1);
    const lines = out.split('\n');
    expect(lines[0]).toBe('Deployment vision/vision-object-tracker  (2026-11-22T02:59:12Z 기준)');
    expect(lines[1]).toMatch(
      /^관리 주체: kubectl apply, 필드 매니저 kubectl-client-side-apply \(근거: kubectl\.kubernetes\.io\/last-applied-configuration 어노테이션\(kubectl 클라이언트 측 apply만 이 어노테이션을 기록합니다\)/,
    );
    // Each plan's proof in Korean, why it was not run included (the model's catalogued reasons).
    expect(out).toContain(
      '    실행해 보지 않고 계산으로 확인했습니다(모든 노드의 파드를 읽지 못했습니다): 조치하는 동안\n    서비스하는 레플리카가 하나도 없습니다(전체 1개 중 0개, 지금 1개). PodDisruptionBudget을 읽지\n    못해서 지켜야 할 최소 개수를 모릅니다.',
    );
    // Each fix's impact in Korean.
    expect(out).toContain(
      '    영향: 지금과 이후의 모든 롤아웃에서 서비스가 잠깐 중단됩니다: 새 파드가 Ready가 될 때까지\n    레플리카 1개 중 1개가 내려갑니다. 추가 파드는 만들지 않습니다(maxSurge 0).',
    );
    expect(out).toContain(
      '    영향: 지금과 이후의 모든 롤아웃에서 서비스가 중단됩니다: 기존 파드가 멈춘 순간부터 새 파드가\n    Ready가 될 때까지 레플리카 1개가 모두 내려갑니다.',
    );
    expect(out).toContain(
      '    영향: 서비스가 잠깐 중단됩니다: 하나뿐인 레플리카(기존 ReplicaSet\n    vision-object-tracker-5c6b7d8f9)가 새 파드가 Ready가 되기 전에 내려갑니다. maxSurge 0과\n    같습니다. Deployment 스펙은 바꾸지 않습니다.',
    );
    expect(out).toContain(
      '    주의: 되돌리면 이전 전략(RollingUpdate maxSurge 25%, maxUnavailable 25%)으로 돌아가서 다음\n    롤아웃이 다시 교착 상태(deadlock)가 됩니다.',
    );
    expect(out).toContain(
      '    주의: kubectl.kubernetes.io/restartedAt 어노테이션도 설정합니다: 새 롤아웃이 시작되어 모든\n    파드를 교체합니다(멈춘 vision-object-tracker-7d9f8b6c5d-q4w8z 포함).',
    );
    // The evidence in Korean around the facts: the scheduler's own words and the fields as written.
    expect(lines).toContain('     전략: RollingUpdate, 레플리카 1개');
    expect(lines).toContain('       maxSurge        25%   -> 1  (기본값, 매니페스트에 설정하지 않음)');
    expect(lines).toContain('     노드 10개를 검토했고, 사용할 수 있는 노드가 없습니다:');
    expect(lines).toContain('     파드가 쓸 수 있는 노드의 용량:');
    expect(lines).toContain('판정');
    expect(lines).toContain(
      '  [심각] RolloutSurgeDeadlock: vision-object-tracker 롤아웃이 끝나지 않습니다: 새 파드(vision-object-tracker-7d9f8b6c5d-q4w8z)에 필요한 gpu-node-1 노드의 nvidia.com/gpu 자원을 이 Deployment의 기존 파드(vision-object-tracker-5c6b7d8f9-x7k2p)가 점유하고 있습니다. maxSurge 1, maxUnavailable 0 설정에서는 새 파드가 Ready가 되기 전에 기존 파드가 삭제되지 않습니다.',
    );
    expect(out).toContain(
      [
        '   컨트롤러는 새 파드를 먼저 만들고(maxSurge 1), 새 파드가 Ready가 된 뒤에야 기존 파드를',
        '   삭제합니다(maxUnavailable 0). 새 파드는 기존 파드가 점유한 nvidia.com/gpu 자원을 기다리고, 기존',
        '   파드는 새 파드가 Ready가 되기를 기다립니다. 서로를 기다리는 교착 상태(deadlock)입니다. 두 파드의',
        '   우선순위가 같아서 스케줄러가 기존 파드를 선점할 수도 없습니다. 기존 파드를 먼저 내리면(maxSurge',
        '   0, maxUnavailable 1 또는 Recreate) gpu-node-1 노드에 자리가 생깁니다. 그다음 롤아웃을 재시작해서',
        '   Pending 상태로 멈춘 새 파드를 교체합니다.',
      ].join('\n'),
    );
    expect(lines).toContain('   근거');
    expect(lines).toContain(
      '   조치: [1] set-rolling-update, [2] set-recreate, [3] scale-old-replicaset (앞의 것부터 권장, 아래 조치 방법 참고)',
    );
    expect(lines).toContain('조치 방법');
    expect(out).toContain(
      '    기존 파드를 먼저 내립니다: RollingUpdate maxSurge 0, maxUnavailable 1. 롤아웃을 재시작해서 멈춘\n    파드를 교체합니다.',
    );
    expect(lines).toContain('    전략을 Recreate로 바꿉니다. 롤아웃을 재시작해서 멈춘 파드를 교체합니다.');
    expect(out).toContain(
      '    기존 ReplicaSet(vision-object-tracker-5c6b7d8f9)의 replicas를 1에서 0으로 줄여 새 파드가 자리를\n    얻게 합니다. Deployment 스펙은 바꾸지 않습니다.',
    );
    expect(lines).toContain('    패치(strategic-merge):');
    expect(lines).toContain('    되돌리기(strategic-merge):');
    expect(lines).toContain('커밋할 변경(근본 해결책입니다. 버튼으로는 적용되지 않습니다)');
    // Codes and patches never translate.
    expect(out).toContain('"maxSurge": 0');
  });

  it('reads LANG when --lang is not given, and --lang wins over it', async () => {
    expect((await run(A, { LANG: 'ko_KR.UTF-8' })).out).toContain('판정');
    expect((await run([...A, '--lang=en'], { LC_ALL: 'ko_KR.UTF-8' })).out).toContain('Verdict');
  });

  it('never translates -o json', async () => {
    const en = await run([...A, '-o', 'json']);
    const ko = await run([...A, '-o', 'json', '--lang', 'ko']);
    expect(ko.out).toBe(en.out);
  });

  it('refuses a language it does not have, with exit 2', async () => {
    const { status, err } = await run([...A, '--lang', 'fr']);
    expect(status).toBe(2);
    expect(err).toBe('rollout-doctor diagnose: --lang must be en or ko, not "fr"\n');
  });
});

describe('the text report in Korean: seed incident B (crash loop on one node)', () => {
  it('says where it crashes, why the node, and the exclusion in Korean', () => {
    const out = renderText(diagnose(crashScenario().snapshot), { lang: 'ko' });
    expect(out).toContain(
      '  [심각] CrashLoopOnNode: detector의 파드가 node-b 노드에서만 CrashLoopBackOff를 반복합니다: 파드 3개 중 1개에서 detector 컨테이너가 실패합니다(마지막 종료 코드 1, Error). 같은 템플릿이 node-a, node-c 노드에서는 Ready 상태로 잘 동작합니다.',
    );
    expect(out).toContain(
      [
        '   모든 파드가 같은 템플릿에서 만들어져 이미지, 명령, 설정이 같습니다. 그런데 node-b 노드에서만',
        '   실패하므로 원인은 애플리케이션이 아니라 노드 쪽에 있습니다. 임시 조치로 nodeAffinity의 NotIn으로',
        '   해당 노드를 제외하고, CrashLoopBackOff 상태인 파드를 교체합니다. 근본 원인(커널, 컨테이너 런타임,',
        '   하드웨어 등 노드의 차이)은 따로 찾아야 합니다.',
      ].join('\n'),
    );
    expect(out).toContain(
      '   조치: [1] exclude-node, [2] delete-pods (앞의 것부터 권장, 아래 조치 방법 참고)',
    );
    expect(out).toContain(
      '    nodeAffinity(NotIn)로 node-b 노드를 제외하고, CrashLoopBackOff 상태인 파드를 다른 노드의 새\n    파드로 교체합니다.',
    );
    expect(out).toContain(
      [
        '    영향: 배치할 수 있는 노드 3개 중 2개가 그대로 남습니다: node-a, node-c. node-b 노드는',
        '    제외합니다. 파드 템플릿이 바뀌므로 새 롤아웃(RollingUpdate)이 시작되어 정상 파드를 포함한 모든',
        '    파드(레플리카 3개)를 교체합니다. 노드를 고친 뒤에는 제외를 해제하세요(되돌리면 이전',
        '    nodeAffinity로 돌아갑니다). 승인자가 승인 옆에서 다른 기간을 고르지 않으면 제외는 24h 후',
        '    끝납니다. 그때 워커가 추가한 NotIn 값을 제거합니다.',
      ].join('\n'),
    );
  });

  it('is the English report, unchanged, without a language', () => {
    const d = diagnose(crashScenario().snapshot);
    expect(renderText(d)).toBe(renderText(d, { lang: 'en' }));
    expect(renderText(d)).toContain('\nVerdict\n');
  });
});
