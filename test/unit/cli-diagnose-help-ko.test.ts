/**
 * `diagnose --help` in Korean (issue 65.4): --lang ko or the shell's LANG chooses it;
 * flags, kinds, commands and values stay as typed; English stays the help as it was.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

async function help(args: string[], env: NodeJS.ProcessEnv = {}) {
  const f = fakeIo();
  f.io.env = env;
  const status = await runCli(['diagnose', ...args], f.io);
  return { status, out: f.stdout(), err: f.stderr() };
}

describe('diagnose --help in Korean', () => {
  it('says each flag in Korean, the flags and values as typed', async () => {
    const { status, out } = await help(['--help', '--lang', 'ko']);
    expect(status).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe(
      '사용법: rollout-doctor diagnose TYPE/NAME [-n NAMESPACE] [--context C] [--kubeconfig F]',
    );
    expect(lines).toContain(
      '워크로드의 롤아웃이 멈춘 이유나 파드가 비정상 종료되는 이유와 조치 방법을 설명합니다.',
    );
    expect(lines).toContain(
      '  -n, --namespace   워크로드의 네임스페이스(기본값: 컨텍스트의 네임스페이스, 없으면 "default")',
    );
    expect(lines).toContain(
      '  --from-file DUMP  클러스터 대신 `kubectl get ... -o yaml` 덤프에서 객체를 읽습니다',
    );
    expect(lines).toContain(
      '                    kubectl get deploy,rs,pods,events,nodes,pvc -n NS -o yaml \\',
    );
    expect(lines).toContain('  -o, --output      text(기본값) 또는 json');
    expect(lines).toContain(
      '종료 코드: 0 문제 없음, 1 문제 있음(IncompleteEvidence 포함), 2 잘못된 인자나 입력,',
    );
    expect((await help(['--help'], { LANG: 'ko_KR.UTF-8' })).out).toBe(out);
  });

  it('leaves English as it was', async () => {
    const { status, out } = await help(['--help']);
    expect(status).toBe(0);
    expect(out).not.toMatch(/[가-힣]/);
    expect(out).toContain(
      [
        "Explains why a workload's rollout is stuck or its pods crash, and what would fix it.",
        'TYPE/NAME: deployment/NAME (or a bare NAME), daemonset/NAME (ds), statefulset/NAME (sts),',
        'rollout/NAME (an Argo Rollout, ro), as kubectl spells them.',
        '  -n, --namespace   namespace of the workload (default: the context\'s namespace, else "default")',
        '  --from-file DUMP  read objects from a `kubectl get ... -o yaml` dump ("-" for stdin)',
        '                    instead of the cluster, e.g.',
        '                    kubectl get deploy,rs,pods,events,nodes,pvc -n NS -o yaml \\',
        '                      --show-managed-fields > dump.yaml',
      ].join('\n'),
    );
    expect(out).toMatch(/check that failed with no verdict\)\.\n$/);
  });
});
