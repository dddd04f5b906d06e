/**
 * Usage errors in Korean (issue 65.4): a bad flag, a missing or extra argument, a value a
 * flag does not take, said in the reader's language (--lang, or the shell's LANG) on the
 * same one line with exit 2; what was typed is quoted with its controls shown as escapes
 * in every language, and English stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const f = fakeIo();
  f.io.env = env;
  const status = await runCli(args, f.io);
  return { status, out: f.stdout(), err: f.stderr() };
}

const KO = { LANG: 'ko_KR.UTF-8' };
/** The commands that take --lang; the others speak the shell's language. */
const TAKE_LANG = ['diagnose', 'check', 'scan'];

describe('usage errors in Korean', () => {
  it.each([
    [
      ['diagnose', 'web', '--nope'],
      'rollout-doctor diagnose: 알 수 없는 옵션입니다: "--nope" (--help로 옵션 목록을 봅니다)',
    ],
    [
      ['diagnose'],
      'rollout-doctor diagnose: 어느 워크로드(Deployment, DaemonSet, StatefulSet, Rollout)인지 지정해야 합니다: TYPE/NAME(deployment/NAME, daemonset/NAME, statefulset/NAME, rollout/NAME), 또는 Deployment라면 NAME만 줍니다',
    ],
    [
      ['diagnose', 'a', 'b'],
      'rollout-doctor diagnose: 워크로드(Deployment, DaemonSet, StatefulSet, Rollout) 하나를 지정해야 하는데 2개가 주어졌습니다: "a" "b"',
    ],
    [
      ['diagnose', 'job/x'],
      'rollout-doctor diagnose: 진단할 수 있는 종류는 Deployment, DaemonSet, StatefulSet, Rollout뿐입니다. 주어진 종류: "job"',
    ],
    [
      ['diagnose', 'deploy/Web'],
      "rollout-doctor diagnose: \"Web\" 값은 올바른 Deployment 이름이 아닙니다(영문 소문자, 숫자, '-', '.'만 쓰고, 영문자나 숫자로 시작하고 끝나야 합니다)",
    ],
    [
      ['diagnose', 'web', '-n', 'Shop'],
      'rollout-doctor diagnose: "Shop" 값은 올바른 네임스페이스가 아닙니다(영문 소문자, 숫자, \'-\'만, 최대 63자)',
    ],
    [
      ['diagnose', 'web', '-o', 'yaml'],
      'rollout-doctor diagnose: -o 값은 text, json 중 하나여야 합니다. 주어진 값: "yaml"',
    ],
    [
      ['diagnose', 'web', '--lang', 'fr'],
      'rollout-doctor diagnose: --lang 값은 en, ko 중 하나여야 합니다. 주어진 값: "fr"',
    ],
    [
      ['check'],
      'rollout-doctor check: 어느 매니페스트인지 지정해야 합니다: -f FILE, -f FOLDER 또는 -f -(표준 입력)',
    ],
    [
      ['check', '-f', 'x.yaml', '-o', 'yaml'],
      'rollout-doctor check: -o 값은 text, json, sarif 중 하나여야 합니다. 주어진 값: "yaml"',
    ],
    [
      ['check', '-f', 'x.yaml', 'y.yaml'],
      'rollout-doctor check: 예상하지 못한 인자입니다: "y.yaml". 매니페스트는 -f로 지정합니다',
    ],
    [
      ['check', '-f', 'x.yaml', '--from-file', 'd.yaml', '--context', 'prod'],
      'rollout-doctor check: --from-file 옵션은 덤프를 읽습니다. --context와 --kubeconfig 옵션은 실제 클러스터에만 씁니다',
    ],
    [
      ['check', '-f', 'x.yaml', '--sarif', ''],
      'rollout-doctor check: --sarif 옵션에는 파일 이름이 필요합니다',
    ],
    [
      ['scan', '-n', 'a', '-A'],
      'rollout-doctor scan: -n과 -A 옵션은 함께 쓸 수 없습니다: 네임스페이스 하나 또는 전체를 스캔합니다',
    ],
    [
      ['undo'],
      'rollout-doctor undo: 어느 되돌리기인지 지정해야 합니다: 적용할 때 출력된 되돌리기 ID나 그 파일을 줍니다',
    ],
    [
      ['undo', 'abc', '--timeout', '0'],
      'rollout-doctor undo: --timeout 값은 0보다 큰 초 단위 숫자여야 합니다',
    ],
    [
      ['apply', 'web'],
      'rollout-doctor apply: 어느 조치인지 지정해야 합니다: --remediation KIND 또는 조치 계획의 ID를 줍니다',
    ],
    [['keygen', 'extra'], 'rollout-doctor keygen: keygen 명령은 인자를 받지 않습니다. 주어진 인자: "extra"'],
    [
      ['explain-scheduling', '-o', 'yaml'],
      'rollout-doctor explain-scheduling: -o 값은 text, json 중 하나여야 합니다. 주어진 값: "yaml"',
    ],
  ])('%j', async (args, line) => {
    const ko = await run(args, KO);
    expect(ko.status).toBe(2);
    expect(ko.err).toBe(`${line}\n`);
    // The flag says it as the shell does; English without either.
    if (!args.includes('--lang') && TAKE_LANG.includes(args[0] ?? ''))
      expect((await run([...args, '--lang', 'ko'])).err).toBe(ko.err);
    const en = await run(args);
    expect(en.status).toBe(2);
    expect(en.err).not.toMatch(/[가-힣]/);
  });

  it('apply: a remediation it does not know and a --lasts it does not take, in Korean', async () => {
    const bad = await run(['apply', 'web', '--remediation', 'reboot'], KO);
    expect(bad.err).toMatch(
      /^rollout-doctor apply: --remediation "reboot" 값은 조치 종류\(.*set-recreate.*\)도, 조치 계획 ID\(diagnose 명령이 출력하는 KIND-<16자리 16진수>\)도 아닙니다\n$/,
    );
    const lasts = await run(['apply', 'web', '--remediation', 'exclude-node', '--lasts', '5d'], KO);
    expect(lasts.err).toMatch(
      /^rollout-doctor apply: --lasts "5d" 값은 노드 제외를 유지할 수 있는 기간이 아닙니다\. 가능한 값: /,
    );
    expect((await run(['apply', 'web', '--remediation', 'exclude-node', '--lasts', '5d'])).err).toMatch(
      /^rollout-doctor apply: --lasts "5d" is not a duration a node exclusion may last: one of /,
    );
  });

  it('leaves English as it was', async () => {
    expect((await run(['diagnose', 'web', '--nope'])).err).toBe(
      'rollout-doctor diagnose: unknown option "--nope" (--help lists the options)\n',
    );
    expect((await run(['check', '-f', 'x.yaml', '-o', 'yaml'])).err).toBe(
      'rollout-doctor check: -o must be text, json or sarif, not "yaml"\n',
    );
    expect((await run(['diagnose', 'job/x'])).err).toBe(
      'rollout-doctor diagnose: only Deployments, DaemonSets, StatefulSets and Rollouts can be diagnosed, not "job"\n',
    );
    expect((await run(['scan', '-n', 'a', '-A'], { LANG: 'C.UTF-8' })).err).toBe(
      'rollout-doctor scan: -n and -A are exclusive: scan one namespace or all of them\n',
    );
  });

  it('quotes what was typed with its controls shown, in Korean as in English', async () => {
    const hostile = 'web\u001b[31m\u202e';
    for (const env of [KO, {}]) {
      const { status, err } = await run(['diagnose', 'web', '-n', hostile], env);
      expect(status).toBe(2);
      expect(err.includes('\u001b') || err.includes('\u202e')).toBe(false);
      expect(err).toContain('"web\\u001b[31m\\u202e"');
    }
  });
});
