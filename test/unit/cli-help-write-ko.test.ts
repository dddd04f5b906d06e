/**
 * `apply`, `propose`, `postmortem` and `serve-admission` in Korean (issue 65.4): their
 * --help and their usage errors, chosen by --lang ko or the shell's LANG; flags, kinds,
 * codes, settings and values as typed. English is pinned byte for byte: the help as it
 * was before it moved to the catalogue (test/fixtures/help/*.en.txt), the errors as they
 * were.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import { ROOT } from '../support/source-tree.js';

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const f = fakeIo();
  f.io.env = env;
  const status = await runCli(args, f.io);
  return { status, out: f.stdout(), err: f.stderr() };
}

const KO = { LANG: 'ko_KR.UTF-8' };
const COMMANDS = ['apply', 'propose', 'postmortem', 'serve-admission'];
// apply takes no --lang (as undo): its errors speak the shell's language, its --help either.

describe('--help of apply, propose, postmortem and serve-admission', () => {
  it.each(COMMANDS)('%s: English as it was, byte for byte', async (command) => {
    const { status, out } = await run([command, '--help']);
    expect(status).toBe(0);
    expect(out).toBe(readFileSync(join(ROOT, `test/fixtures/help/${command}.en.txt`), 'utf8'));
    expect((await run([command, '--help'], { LANG: 'en_US.UTF-8' })).out).toBe(out);
  });

  it.each(COMMANDS)('%s: Korean with --lang ko or LANG, the synopsis as typed', async (command) => {
    const { status, out } = await run([command, '--help', '--lang', 'ko']);
    expect(status).toBe(0);
    expect(out).toMatch(new RegExp(`^사용법: rollout-doctor ${command} `));
    if (command !== 'serve-admission') expect(out).toMatch(/\n종료 코드: 0 /);
    expect(out).not.toMatch(/Exit status|Usage:|Diagnoses|Proposes|Drafts|Serves|\(default/);
    expect((await run([command, '--help'], KO)).out).toBe(out);
    expect((await run(['--lang', 'ko', command, '--help'])).out).toBe(out);
  });

  it('apply: the remediation kinds and durations as typed', async () => {
    const lines = (await run(['apply', '--help'], KO)).out.split('\n');
    expect(lines).toContain('                 또는 `diagnose -o json` 출력의 조치 계획 ID');
    expect(lines.find((l) => l.startsWith('  --remediation  '))).toMatch(
      /^ {2}--remediation {2}조치 종류\(set-rolling-update, set-recreate, /,
    );
    expect(lines).toContain(
      '  --yes          묻지 않고 적용합니다(스크립트용). 이 옵션이 없으면 터미널이 필요합니다',
    );
    expect(lines.find((l) => l.startsWith('  --lasts D'))).toContain(
      '4h, 24h, 3d, 7d, until-removed 중 하나',
    );
    expect(lines).toContain('                 (기본값: $ROLLOUT_DOCTOR_ARGOCD_NAMESPACE, 없으면 argocd)');
  });

  it('propose: Git, its flags and settings as typed', async () => {
    const lines = (await run(['propose', '--help'], KO)).out.split('\n');
    expect(lines).toContain(
      '지속되는 조치를 워크로드를 적용하는 Git 저장소에 제안합니다. 증명된 조치 계획이 클러스터에',
    );
    expect(lines).toContain(
      '  --dry-run        클론, 수정, 검사 후 변경 내용을 출력만 하고 푸시하지 않습니다',
    );
    expect(lines).toContain(
      '  --token-file F   토큰(시크릿 파일). 없으면 $ROLLOUT_DOCTOR_GIT_TOKEN. 출력하지 않습니다.',
    );
  });

  it('postmortem: the log bound and the settings as typed', async () => {
    const lines = (await run(['postmortem', '--help'], KO)).out.split('\n');
    expect(lines[1]).toBe('        rollout-doctor postmortem --incident ID [옵션]');
    expect(lines).toContain('                      셉니다(최대 256 MiB)');
    expect(lines).toContain('  -o markdown|json    Markdown(기본값) 또는 장애 기록 그대로의 JSON');
    expect(lines).toContain(
      '종료 코드: 0 초안 작성, 2 잘못된 인자나 입력, 3 Redis에 연결할 수 없음, 4 내부 오류.',
    );
  });

  it('serve-admission: the kinds, paths and settings as typed', async () => {
    const lines = (await run(['serve-admission', '--help'], KO)).out.split('\n');
    expect(lines).toContain(
      '대상: Deployment, DaemonSet, StatefulSet, Argo Rollout. 모든 요청을 허용하되, 끝날 수 없는 롤아웃을 시작하는 요청에는',
    );
    expect(lines).toContain(
      '  --probe-port      /healthz, /readyz, /metrics를 제공하는 일반 HTTP 포트(기본값 8080, 0이면 없음)',
    );
    expect(lines).toContain(
      '(ROLLOUT_DOCTOR_CLUSTER도 함께, 기본값 "default") 경고한 적용을 앱에 알리고, 앱은 알림 채널에',
    );
  });
});

const FILE = join(ROOT, 'package.json');

describe('their usage errors', () => {
  it.each([
    [
      ['apply', 'web', '-n', 'shop'],
      'which remediation? pass --remediation KIND or a plan id',
      '어느 조치인지 지정해야 합니다: --remediation KIND 또는 조치 계획의 ID를 줍니다',
    ],
    [
      ['apply', 'web', '--remediation', 'set-recreate', '--lasts', '4h'],
      '--lasts is only for an exclude-node remediation (a node exclusion); "set-recreate" writes none',
      '--lasts 옵션은 exclude-node 조치(노드 제외)에만 씁니다. "set-recreate" 조치는 노드 제외를 쓰지 않습니다',
    ],
    [
      ['propose', 'web', '--remediation', 'set-recreate', '--repo', 'https://git.example/app'],
      'give --repo URL and --path PATH together, or neither (then the Argo CD or Flux owner says where)',
      '--repo와 --path 옵션은 함께 주거나 둘 다 빼야 합니다(빼면 워크로드를 적용하는 Argo CD나 Flux 객체가 위치를 알려 줍니다)',
    ],
    [
      ['propose', 'web', '--remediation', 'set-recreate', '--github-repo', 'acme'],
      '--github-repo must be OWNER/REPO, not "acme"',
      '--github-repo 값은 OWNER/REPO 형식이어야 합니다. 주어진 값: "acme"',
    ],
    [
      ['postmortem'],
      'which incident? give --from-audit FILE, or --incident ID to read its record in Redis',
      '어느 장애인지 지정해야 합니다: --from-audit FILE, 또는 Redis에 있는 기록을 읽으려면 --incident ID를 줍니다',
    ],
    [
      ['postmortem', 'extra'],
      'postmortem takes no arguments, got: "extra"',
      'postmortem 명령은 인자를 받지 않습니다. 주어진 인자: "extra"',
    ],
    [
      ['postmortem', '--incident', 'shop/web', '--tz', 'Mars/Base'],
      '--tz "Mars/Base" is not a time zone this runtime knows (an IANA name such as Asia/Seoul)',
      '--tz "Mars/Base" 값은 이 런타임이 아는 시간대가 아닙니다(Asia/Seoul 같은 IANA 이름을 줍니다)',
    ],
    [
      ['postmortem', '--from-audit', '/nonexistent/audit.log'],
      'cannot read "/nonexistent/audit.log": no such file',
      '"/nonexistent/audit.log" 파일을 읽을 수 없습니다: 파일이 없습니다',
    ],
    [
      ['postmortem', '--from-audit', join(ROOT, 'test')],
      `"${join(ROOT, 'test')}" is not a regular file`,
      `"${join(ROOT, 'test')}" 경로는 일반 파일이 아닙니다`,
    ],
    [
      ['serve-admission'],
      '--tls-cert and --tls-key are required: the API server calls webhooks over HTTPS only',
      '--tls-cert와 --tls-key 옵션이 필요합니다: API 서버는 웹훅을 HTTPS로만 호출합니다',
    ],
    [
      ['serve-admission', '--tls-cert', FILE, '--tls-key', FILE, '--client-name', 'kube-apiserver'],
      '--client-name needs --client-ca: a name is only checked on a certificate the CA signed',
      '--client-name 옵션에는 --client-ca 옵션이 필요합니다: 이름은 그 인증 기관이 서명한 인증서에서만 확인합니다',
    ],
    [
      ['serve-admission', '--tls-cert', FILE, '--tls-key', FILE, '--port', '99999'],
      '--port must be a whole number from 0 to 65535, not "99999"',
      '--port 값은 0에서 65535 사이의 정수여야 합니다. 주어진 값: "99999"',
    ],
  ])('%j', async (args, en, ko) => {
    const command = args[0] ?? '';
    const english = await run(args);
    expect(english.status).toBe(2);
    expect(english.err).toBe(`rollout-doctor ${command}: ${en}\n`);
    const korean = await run(args, KO);
    expect(korean.status).toBe(2);
    expect(korean.err).toBe(`rollout-doctor ${command}: ${ko}\n`);
    if (command !== 'apply') expect((await run([...args, '--lang', 'ko'])).err).toBe(korean.err);
  });
});

describe('a refused remediation', () => {
  it('propose: the plan the diagnosis did not offer, the offered ones as typed', async () => {
    const dump = join(ROOT, 'test/fixtures/dumps/incident-a-gpu-surge.yaml');
    const args = ['propose', 'deploy/vision-object-tracker', '-n', 'vision', '--remediation', 'delete-pods'];
    const offered =
      'set-rolling-update (set-rolling-update-fbad729e29bebc20), set-recreate (set-recreate-abc817ef8cf29b84), scale-old-replicaset (scale-old-replicaset-c9b22b3d7bbe7ffa)';
    const english = await run([...args, '--from-file', dump]);
    expect(english.status).toBe(2);
    expect(english.err).toBe(
      `rollout-doctor propose: no remediation "delete-pods" for vision/vision-object-tracker; offered: ${offered}\n`,
    );
    const korean = await run([...args, '--from-file', dump, '--lang', 'ko']);
    expect(korean.status).toBe(2);
    expect(korean.err).toBe(
      `rollout-doctor propose: vision/vision-object-tracker 워크로드에는 "delete-pods" 조치가 없습니다. 제시된 조치: ${offered}\n`,
    );
    expect((await run([...args, '--from-file', dump], KO)).err).toBe(korean.err);
  });
});
