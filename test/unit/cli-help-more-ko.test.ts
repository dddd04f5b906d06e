/**
 * `explain-scheduling --help` and `undo --help` in Korean (issue 65.4), chosen by the
 * shell's LANG (neither command takes --lang); flags, commands, paths and values as
 * typed; English as it was.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

async function help(command: string, env: NodeJS.ProcessEnv = {}) {
  const f = fakeIo();
  f.io.env = env;
  const status = await runCli([command, '--help'], f.io);
  return { status, out: f.stdout() };
}

const KO = { LANG: 'ko_KR.UTF-8' };

describe('more commands’ help in Korean', () => {
  it('explain-scheduling', async () => {
    const { status, out } = await help('explain-scheduling', KO);
    expect(status).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe(
      '사용법: rollout-doctor explain-scheduling [-o text|json] [--lang en|ko] [MESSAGE...]',
    );
    expect(lines).toContain('kube-scheduler FailedScheduling 메시지를 설명하고, 무엇을 바꾸면 결과가');
    expect(lines).toContain('  -o, --output   text(기본값) 또는 json');
    expect(lines).toContain('  kubectl get events -A --field-selector reason=FailedScheduling \\');
    const en = (await help('explain-scheduling')).out;
    expect(en).toMatch(
      /^Usage: rollout-doctor explain-scheduling \[-o text\|json\] \[--lang en\|ko\] \[MESSAGE\.\.\.\]\n\nExplains /,
    );
    expect(en).toContain(
      "\n  -o, --output   text (default) or json\n  --lang en|ko   the text's language (default: LC_ALL, LC_MESSAGES, LANG; else en);\n",
    );
    expect(lines).toContain(
      '  --lang en|ko   텍스트 출력의 언어(기본값: LC_ALL, LC_MESSAGES, LANG 순서, 없으면 en)',
    );
  });

  it('undo', async () => {
    const { status, out } = await help('undo', KO);
    expect(status).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^사용법: rollout-doctor undo ID\|FILE \[--yes\]/);
    expect(lines).toContain('`rollout-doctor apply` 명령이 쓴 것을 되돌립니다.');
    expect(lines).toContain(
      '  --yes          묻지 않고 되돌립니다(스크립트용). 이 옵션이 없으면 터미널이 필요합니다',
    );
    expect(out).toContain('$ROLLOUT_DOCTOR_STATE_DIR/undo에 보관합니다');
    const en = (await help('undo')).out;
    expect(en).toContain(
      'Puts back what `rollout-doctor apply` wrote: apply prints "To undo: rollout-doctor undo\nID" and keeps that Undo in $ROLLOUT_DOCTOR_STATE_DIR/undo (else\n',
    );
    expect(en).not.toMatch(/[가-힣]/);
  });

  it('keygen: who holds each key, the names as typed', async () => {
    const { status, out } = await help('keygen', KO);
    expect(status).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('사용법: rollout-doctor keygen [--seal-id ID] [--approval-id ID] [--notify-id ID]');
    expect(lines).toContain('새 키 5개를 환경 변수 줄로 출력합니다(ID의 기본값은 오늘 날짜):');
    expect(lines).toContain('  ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY   앱만 가짐');
    expect(lines).toContain('  ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS     앱이 가짐');
    expect(lines).toContain('  ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS   워커가 가짐');
    const en = (await help('keygen')).out;
    expect(en.split('\n')).toContain('  ROLLOUT_DOCTOR_PLAN_SEAL_KEY          the workers only');
    expect(en).toContain(
      'To rotate, see docs/operations.md ("Keys"). The output is secret: write it to a file\n',
    );
  });
});
