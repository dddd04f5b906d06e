/**
 * The CLI's command list in Korean (issue 65.1–3): `--lang ko` or the shell's LANG
 * chooses it, command names and flags stay as typed, and English stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { runCli, usage } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

async function help(args: string[], env: NodeJS.ProcessEnv = {}) {
  const f = fakeIo();
  f.io.env = env;
  const status = await runCli(args, f.io);
  return { status, out: f.stdout(), err: f.stderr() };
}

describe('the command list in Korean', () => {
  it('lists every command by its name with a Korean line under --lang ko', async () => {
    const { status, out } = await help(['--help', '--lang', 'ko']);
    expect(status).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('사용법: rollout-doctor <명령> [옵션]');
    expect(lines).toContain(
      '  check                적용하기 전에: 이 매니페스트가 시작하는 롤아웃이 이 클러스터에서 끝나는지 확인합니다(-f FILE|DIR|-, CI와 GitOps)',
    );
    expect(lines).toContain(
      '  scan                 멈췄거나 위험한 워크로드(Deployment, DaemonSet, StatefulSet, Argo Rollout)를 나열합니다(-n NS 또는 -A)',
    );
    for (const name of [
      'diagnose',
      'explain-scheduling',
      'serve-admission',
      'apply',
      'propose',
      'undo',
      'postmortem',
      'keygen',
    ])
      expect(out).toMatch(new RegExp(`^  ${name} +.*[가-힣]`, 'm'));
    expect(lines).toContain('명령별 옵션은 rollout-doctor <명령> --help로 확인합니다.');
  });

  it('is chosen by the shell (LANG=ko_KR.UTF-8), for an unknown command too; --lang en wins', async () => {
    const korean = (await help(['--help', '--lang', 'ko'])).out;
    expect((await help(['--help'], { LANG: 'ko_KR.UTF-8' })).out).toBe(korean);
    const unknown = await help(['nope'], { LC_ALL: 'ko_KR.UTF-8' });
    expect(unknown.status).toBe(2);
    expect(unknown.err).toBe(`rollout-doctor: 알 수 없는 명령입니다: "nope"\n\n${korean}`);
    expect((await help(['nope'])).err).toMatch(/^rollout-doctor: unknown command "nope"\n\n/);
    expect((await help(['--help', '--lang', 'en'], { LANG: 'ko_KR.UTF-8' })).out).toBe(usage());
    // --lang before the command counts as after it.
    expect((await help(['--lang', 'ko', '--help'])).out).toBe(korean);
    expect((await help(['--lang=ko', 'scan', '--help'])).out).toBe(
      (await help(['scan', '--help', '--lang', 'ko'])).out,
    );
    const bare = await help(['--lang', 'ko']);
    expect([bare.status, bare.out]).toEqual([2, korean]);
  });

  it('leaves English as it was', async () => {
    const { out } = await help(['--help'], { LANG: 'C.UTF-8' });
    expect(out).toBe(usage());
    expect(out.split('\n').slice(0, 5)).toEqual([
      'Usage: rollout-doctor <command> [options]',
      '       rollout-doctor --version',
      '',
      'Commands:',
      '  diagnose             explain a stuck rollout or crashing pods of one Deployment, DaemonSet, StatefulSet or Argo Rollout (live or --from-file)',
    ]);
    expect(out).toContain(
      '  scan                 list Deployments, DaemonSets, StatefulSets and Argo Rollouts that are stuck or at risk (-n NS or -A)\n',
    );
    expect(out).toContain(
      '  postmortem           draft the post-mortem of an incident from the audit log (--from-audit FILE) or its record in Redis (--incident ID)\n',
    );
    expect(out.endsWith('\nRun rollout-doctor <command> --help for its options.\n')).toBe(true);
    expect(out).not.toMatch(/[가-힣]/);
  });

  it.each([
    [
      'check',
      '  --sarif FILE          같은 클러스터 읽기 결과로 SARIF 파일도 씁니다',
      '  --sarif FILE          also write SARIF to FILE, from the same reading of the cluster',
    ],
    [
      'scan',
      '  -A, --all-namespaces  모든 네임스페이스를 검사합니다',
      '  -A, --all-namespaces  scan every namespace',
    ],
  ])(
    '%s --help in Korean under --lang ko and LANG, flags as typed; English as it was, with --lang listed',
    async (command, korean, english) => {
      const ko = await help([command, '--help', '--lang', 'ko']);
      expect(ko.status).toBe(0);
      const lines = ko.out.split('\n');
      expect(lines[0]).toMatch(new RegExp(`^사용법: rollout-doctor ${command} `));
      expect(lines).toContain(korean);
      expect(lines.some((l) => l.startsWith('  --lang en|ko          ') && /[가-힣]/.test(l))).toBe(true);
      expect(lines.some((l) => l.startsWith('종료 코드: 0 '))).toBe(true);
      expect((await help([command, '-h'], { LANG: 'ko_KR.UTF-8' })).out).toBe(ko.out);
      const en = (await help([command, '--help'])).out;
      expect(en.split('\n')[0]).toMatch(new RegExp(`^Usage: rollout-doctor ${command} `));
      expect(en.split('\n')).toContain(english);
      expect(en).toContain('  --lang en|ko          the text');
      expect(en).toMatch(/\nExit status: 0 [^\n]*\n[^\n]*4 internal error[^\n]*\n$/);
      expect(en).not.toMatch(/[가-힣]/);
    },
  );
});
