/**
 * The CLI's help in every language: the command list (run-cli.ts `usage`). What a
 * person types never translates: the command names and the flags are parameters
 * (`names` in the order of COMMAND_NAMES, `flags` in the order of USAGE_FLAGS), tools and formats written as they
 * are; the English entry is the list as it was, byte for byte.
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';

/** The commands, in the order the list shows them (run-cli.ts loads each by name). */
export const COMMAND_NAMES = [
  'diagnose',
  'explain-scheduling',
  'check',
  'serve-admission',
  'scan',
  'apply',
  'propose',
  'undo',
  'postmortem',
  'keygen',
] as const;

/** The flags and commands the list names, as typed (parameters, so no language changes them). */
export const USAGE_FLAGS = [
  '--version',
  '--help',
  '--from-file',
  '-f FILE|DIR|-',
  'kubectl apply',
  '-n NS',
  '-A',
  '--from-audit FILE',
  '--incident ID',
  'keygen --help',
] as const;

/** The command list: `names` in order, `one`/`all` the workload kinds as each language lists them. */
type Usage = { names: string[]; flags: string[]; one: string; all: string; keys: number };

const row = (name: string | undefined, summary: string): string => `  ${(name ?? '').padEnd(20)} ${summary}`;

export const HELP_WORDS = registerCatalogue(
  'help',
  defineMessages({
    usage: {
      en: ({ names: n, flags: f, one, all, keys }: Usage) =>
        [
          'Usage: rollout-doctor <command> [options]',
          `       rollout-doctor ${f[0]}`,
          '',
          'Commands:',
          row(n[0], `explain a stuck rollout or crashing pods of one ${one} (live or ${f[2]})`),
          row(n[1], 'explain FailedScheduling messages read on stdin and what would let the pod schedule'),
          row(
            n[2],
            `before you apply: will the rollouts these manifests start finish in this cluster? (${f[3]}, CI and GitOps)`,
          ),
          row(
            n[3],
            `serve the admission webhook that warns at ${f[4]} about a rollout that can never finish`,
          ),
          row(n[4], `list ${all} that are stuck or at risk (${f[5]} or ${f[6]})`),
          row(
            n[5],
            'apply one remediation to a workload (any of the four kinds) after showing the patch and confirming',
          ),
          row(
            n[6],
            'propose the proved fix to the Git repository that applies the workload, as a pull request',
          ),
          row(n[7], 'put back what apply wrote, by the undo id it printed, if nothing moved on since'),
          row(
            n[8],
            `draft the post-mortem of an incident from the audit log (${f[7]}) or its record in Redis (${f[8]})`,
          ),
          row(
            n[9],
            `print the ${keys} keys the app and the workers sign and check with (${f[9]} lists them)`,
          ),
          '',
          `Run rollout-doctor <command> ${f[1]} for its options.`,
          '',
        ].join('\n'),
      ko: ({ names: n, flags: f, one, all, keys }: Usage) =>
        [
          '사용법: rollout-doctor <명령> [옵션]',
          `        rollout-doctor ${f[0]}`,
          '',
          '명령:',
          row(
            n[0],
            `워크로드(${one}) 하나의 롤아웃이 멈춘 이유나 파드가 계속 실패하는 이유를 설명합니다(클러스터 또는 ${f[2]})`,
          ),
          row(
            n[1],
            '표준 입력의 FailedScheduling 메시지를 설명하고, 파드가 스케줄되려면 무엇이 필요한지 알려 줍니다',
          ),
          row(
            n[2],
            `적용하기 전에: 이 매니페스트가 시작하는 롤아웃이 이 클러스터에서 끝나는지 확인합니다(${f[3]}, CI와 GitOps)`,
          ),
          row(n[3], `${f[4]} 때 끝날 수 없는 롤아웃을 경고하는 어드미션 웹훅을 실행합니다`),
          row(n[4], `멈췄거나 위험한 워크로드(${all})를 나열합니다(${f[5]} 또는 ${f[6]})`),
          row(n[5], '패치를 보여 주고 확인을 받은 뒤, 워크로드에 조치 하나를 적용합니다(네 가지 종류 모두)'),
          row(n[6], '증명된 조치를 워크로드를 적용하는 Git 저장소에 풀 리퀘스트로 제안합니다'),
          row(n[7], '그 뒤로 바뀐 것이 없으면, 적용할 때 출력된 되돌리기 id로 적용한 것을 되돌립니다'),
          row(n[8], `감사 로그(${f[7]})나 Redis의 기록(${f[8]})에서 장애의 포스트모템 초안을 씁니다`),
          row(n[9], `앱과 워커가 서명하고 검증하는 키 ${keys}개를 출력합니다(목록은 ${f[9]})`),
          '',
          `명령별 옵션은 rollout-doctor <명령> ${f[1]}로 확인합니다.`,
          '',
        ].join('\n'),
    },
  }),
  {
    usage: [
      {
        names: [...COMMAND_NAMES],
        flags: [...USAGE_FLAGS],
        one: 'Deployment, DaemonSet, StatefulSet, Argo Rollout',
        all: 'Deployment, DaemonSet, StatefulSet, Argo Rollout',
        keys: 5,
      },
    ],
  },
);
