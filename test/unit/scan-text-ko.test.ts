/**
 * `scan` in Korean (issue 65.1–3): `--lang ko` or the shell's LANG chooses it for the
 * text output, the table lines up in terminal columns, codes and kinds stay as written,
 * `-o json` never translates, and English stays as it was. The seed incident A's dump.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { renderScan } from '../../src/cli/commands/scan.js';
import { columns } from '../../src/text/columns.js';
import { fakeIo } from '../support/cli-io.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;

async function scan(args: string[], env: NodeJS.ProcessEnv = {}) {
  const f = fakeIo();
  f.io.env = env;
  const status = await runCli(['scan', '-n', 'vision', '--from-file', FIXTURE, ...args], f.io);
  return { status, out: f.stdout(), err: f.stderr() };
}

describe('scan in Korean', () => {
  it('says the table, the count and the pointer to diagnose in Korean under --lang ko', async () => {
    const { status, out, err } = await scan(['--lang', 'ko']);
    expect(err).toBe('');
    expect(status).toBe(1);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^상태 {2}워크로드 +판정 +요약$/);
    expect(lines[1]).toMatch(
      /^멈춤 {2}vision\/deployment\/vision-object-tracker {2}RolloutSurgeDeadlock {2}vision-object-tracker 롤아웃이 끝나지 않습니다: 새 파드\(/,
    );
    // Columns line up as a terminal draws them (a Hangul syllable is two columns wide).
    const at = (line: string, word: string): number => columns(line.slice(0, line.indexOf(word)));
    expect(at(lines[0] ?? '', '판정')).toBe(at(lines[1] ?? '', 'RolloutSurgeDeadlock'));
    expect(at(lines[0] ?? '', '요약')).toBe(at(lines[1] ?? '', 'vision-object-tracker 롤아웃'));
    expect(lines).toContain('vision 네임스페이스의 워크로드 1개 중 1개를 살펴봐야 합니다.');
    expect(lines).toContain(
      '근거와 조치 방법은 `rollout-doctor diagnose TYPE/NAME -n NAMESPACE` 명령으로 확인합니다.',
    );
  });

  it('is chosen by LANG=ko_KR.UTF-8 as by --lang ko; --lang en wins over it', async () => {
    const flag = (await scan(['--lang', 'ko'])).out;
    expect(flag).toContain('살펴봐야 합니다');
    expect((await scan([], { LANG: 'ko_KR.UTF-8' })).out).toBe(flag);
    expect((await scan(['--lang', 'en'], { LANG: 'ko_KR.UTF-8' })).out).toBe((await scan([])).out);
  });

  it('leaves English as it was', async () => {
    const lines = (await scan([])).out.split('\n');
    expect(lines[0]).toBe('STATE  WORKLOAD                                 FINDINGS              SUMMARY');
    expect(lines[1]).toMatch(
      /^STUCK {2}vision\/deployment\/vision-object-tracker {2}RolloutSurgeDeadlock {2}Rollout of vision-object-tracker can never finish: /,
    );
    expect(lines.slice(2)).toEqual([
      '',
      '1 of 1 workloads in namespace vision need attention.',
      'Run `rollout-doctor diagnose TYPE/NAME -n NAMESPACE` for the evidence and fixes.',
      '',
    ]);
  });

  it('never translates -o json, which carries no catalogue words', async () => {
    const en = await scan(['-o', 'json']);
    const ko = await scan(['-o', 'json', '--lang', 'ko'], { LANG: 'ko_KR.UTF-8' });
    expect(ko.out).toBe(en.out);
    expect(ko.out).not.toMatch(/[가-힣]/);
    expect(ko.out).not.toContain('"says"');
    expect((await scan(['--lang', 'xx'])).status).toBe(2);
  });

  it('says an all clear and its notes in Korean', () => {
    const report = {
      scope: { namespace: 'payments', allNamespaces: false },
      scanned: 3,
      diagnosed: 3,
      entries: [],
      nodesComplete: false,
      accessProblems: [
        { verb: 'list' as const, resource: 'events', status: 403, message: 'events in payments: forbidden' },
      ],
      notServed: ['Rollout' as const],
    };
    expect(renderScan(report, 'ko').split('\n')).toEqual([
      'payments 네임스페이스에 멈추거나 위험한 워크로드가 없습니다(3개 검사: Deployment, DaemonSet, StatefulSet, Rollout).',
      '참고: 노드를 모두 읽지는 못했습니다(목록이 잘렸거나 거부되었거나, 덤프에 노드가 없습니다). 위험 예측이 빠질 수 있습니다.',
      '참고: events in payments: forbidden',
      '참고: 이 클러스터에는 rollouts.argoproj.io 리소스가 없습니다(Argo Rollouts 미설치). 검사할 Rollout이 없습니다.',
      '',
    ]);
    expect(renderScan(report).split('\n')).toEqual([
      'No stuck or at-risk workloads in namespace payments (3 scanned: Deployments, DaemonSets, StatefulSets and Rollouts).',
      'Note: not every node was read (the list was capped or refused, or the dump holds no nodes); at-risk predictions may be incomplete.',
      'Note: events in payments: forbidden',
      'Note: this cluster serves no rollouts.argoproj.io (Argo Rollouts is not installed): no Rollouts to scan.',
      '',
    ]);
  });
});
