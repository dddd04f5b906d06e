/**
 * The CLI's help in every language: the command list (run-cli.ts `usage`) and the help
 * of `check` and `scan`. What a person types never translates: the command names, the
 * flags and the values they take are parameters (`names` in the order of
 * COMMAND_NAMES, `flags` and `values` in the order of the lists below), tools and
 * formats are written as they are; the English entries are the help as it was, byte
 * for byte (with the --lang line added).
 */
import { defineMessages, registerCatalogue } from '../i18n/catalogue.js';
import { wrap } from '../report/format.js';

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

/** `check --help`'s flags and the values it names, as typed. */
export const CHECK_FLAGS = [
  '-f, --filename PATH',
  '-n, --namespace',
  '--context, --kubeconfig',
  '--from-file DUMP',
  '-o, --output',
  '--sarif FILE',
  '--allow-unknown',
  '--baseline FILE',
  '--warn CODE',
  '--lang en|ko',
] as const;
export const CHECK_VALUES = [
  '.yaml, .yml',
  '.json',
  'helm template',
  'kustomize build',
  '"default"',
  '`kubectl get ... -o yaml`',
  'text',
  'json',
  'sarif',
  'accepted: [{target: NS/Kind/name, code, reason}]',
  'rollout-doctor.io/accept: CODE[,CODE]',
  'rollout-doctor.io/accept-reason',
  'LC_ALL',
  'LC_MESSAGES',
  'LANG',
  'en',
  'IncompleteEvidence',
] as const;

/** `scan --help`'s flags and the values it names, as typed. */
export const SCAN_FLAGS = [
  '-n, --namespace',
  '-A, --all-namespaces',
  '--context, --kubeconfig',
  '--from-file DUMP',
  '-o, --output',
  '--lang en|ko',
] as const;
export const SCAN_VALUES = [
  '"default"',
  '`kubectl get ... -o yaml`',
  'text',
  'json',
  'LC_ALL',
  'LC_MESSAGES',
  'LANG',
  'en',
] as const;

/** `diagnose --help`'s flags and the values it names, as typed. */
export const DIAGNOSE_FLAGS = [
  '-n, --namespace',
  '--from-file DUMP',
  '--context, --kubeconfig',
  '--argocd-namespace NS',
  '-o, --output',
  '--lang en|ko',
] as const;
export const DIAGNOSE_VALUES = [
  'TYPE/NAME',
  'deployment/NAME',
  'NAME',
  'daemonset/NAME (ds)',
  'statefulset/NAME (sts)',
  'rollout/NAME',
  'ro',
  '"default"',
  '`kubectl get ... -o yaml`',
  'kubectl get deploy,rs,pods,events,nodes,pvc -n NS -o yaml \\\n                      --show-managed-fields > dump.yaml',
  'ds',
  'sts',
  'controllerrevisions',
  'deploy,rs',
  'rollouts,rs',
  '---',
  'README "Command line"',
  '$ROLLOUT_DOCTOR_ARGOCD_NAMESPACE',
  'argocd',
  'text',
  'json',
  'LC_ALL',
  'LC_MESSAGES',
  'LANG',
  'en',
  'IncompleteEvidence',
] as const;

/** `explain-scheduling --help`'s flags and the values it names, as typed. */
export const EXPLAIN_FLAGS = ['-o, --output', '-o json', '--lang en|ko'] as const;
export const EXPLAIN_VALUES = [
  'kube-scheduler FailedScheduling',
  'text',
  'json',
  'kubectl get events -A --field-selector reason=FailedScheduling \\\n    -o jsonpath=\'{range .items[*]}{.message}{"\\n"}{end}\' | rollout-doctor explain-scheduling',
  'LC_ALL',
  'LC_MESSAGES',
  'LANG',
  'en',
] as const;

/** `undo --help`'s flags and the values it names, as typed. */
export const UNDO_FLAGS = ['--yes', '--timeout 300', '--lang en|ko'] as const;
export const UNDO_VALUES = [
  '`rollout-doctor apply`',
  '"To undo: rollout-doctor undo\nID"',
  '$ROLLOUT_DOCTOR_STATE_DIR/undo',
  '$XDG_STATE_HOME/rollout-doctor/undo',
  '~/.local/state/rollout-doctor/undo',
  'LC_ALL',
  'LC_MESSAGES',
  'LANG',
  'en',
] as const;

/** `apply --help`'s flags and the values it names, as typed. */
export const APPLY_FLAGS = [
  '--remediation',
  '--yes',
  '--lasts D',
  '--argocd-namespace NS',
  '--timeout',
  '--lang en|ko',
] as const;
export const APPLY_VALUES = [
  'deployment/NAME',
  'daemonset/NAME',
  'statefulset/NAME',
  'rollout/NAME',
  '"To undo: rollout-doctor undo ID"',
  '`rollout-doctor undo --help`',
  '`diagnose -o json`',
  '$ROLLOUT_DOCTOR_ARGOCD_NAMESPACE',
  'argocd',
  '"paused at step N; promote to go on"',
  'delete-pods',
  'taint-device',
  'LC_ALL',
  'LC_MESSAGES',
  'LANG',
  'en',
  'Deployment',
] as const;

/** `propose --help`'s flags and the values it names, as typed. */
export const PROPOSE_FLAGS = [
  '--remediation',
  '--repo URL',
  '--path PATH',
  '--base BRANCH',
  '--dry-run',
  '--incident ID',
  '--approved-by, --thread',
  '--github-api URL',
  '--token-file F',
  '--release NAME',
  '--values FILE',
  '--lang en|ko',
] as const;
export const PROPOSE_VALUES = [
  '`rollout-doctor check`',
  'set-rolling-update, set-recreate',
  'https',
  'Argo CD',
  'Flux',
  'Kustomization',
  'HelmRelease',
  'GitRepository',
  '$ROLLOUT_DOCTOR_GITHUB_API',
  'https://api.github.com',
  'GitHub Enterprise',
  'https://HOST/api/v3',
  '$ROLLOUT_DOCTOR_GIT_TOKEN',
  'helm template',
  'values.yaml',
  'LC_ALL',
  'LC_MESSAGES',
  'LANG',
  'REST API',
] as const;

/** `postmortem --help`'s flags and the values it names, as typed. */
export const POSTMORTEM_FLAGS = [
  '--from-audit FILE',
  '--incident ID',
  '--lang en|ko',
  '-o markdown|json',
  '--tz ZONE',
  '--from-audit',
] as const;
export const POSTMORTEM_VALUES = [
  'UTC',
  'JSON',
  'CLUSTER/NAMESPACE/NAME',
  'NAMESPACE/NAME',
  'Redis',
  'REDIS_URL',
  'ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS',
  'LC_ALL',
  'LC_MESSAGES',
  'LANG',
  'en',
  'Markdown',
  'IANA',
  'Asia/Seoul',
  'TZ',
] as const;

/** `serve-admission --help`'s flags and the values it names, as typed. */
export const SERVE_FLAGS = [
  '--port',
  '--tls-cert, --tls-key',
  '--client-ca',
  '--client-name',
  '--probe-port',
  '--budget-ms',
  '--cache-seconds',
  '--kubeconfig, --context',
  '--lang',
] as const;
export const SERVE_VALUES = [
  'POST /validate',
  'AdmissionReview',
  'admission.k8s.io/v1',
  'rollout-doctor.io/admission=refuse',
  'HTTPS',
  'PEM',
  'AdmissionConfiguration kubeConfigFile',
  'CN',
  'DNS SAN',
  'HTTP',
  '/healthz',
  '/readyz',
  '/metrics',
  'KUBECONFIG',
  'rollout-doctor.io/lang',
  'ROLLOUT_DOCTOR_LANG',
  'en',
  'GET',
  'REDIS_URL',
  'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY',
  'ROLLOUT_DOCTOR_CLUSTER',
  '"default"',
  'CA',
] as const;

/** Who holds a key keygen prints: the app or the workers, and whether only they do. */
export type KeyHolder = { who: 'app' | 'workers'; only: boolean };
type Keygen = { usage: string; names: string[]; holders: KeyHolder[]; doc: string };
/** Who holds a key, in Korean: [held by them, held by them only]. */
const HOLDER_KO: Record<KeyHolder['who'], readonly [string, string]> = {
  app: ['앱이 가짐', '앱만 가짐'],
  workers: ['워커가 가짐', '워커만 가짐'],
};

/** A command's help: its synopsis (after "Usage: "), the kinds it reads, its flags and values. */
type Help = { usage: string; kinds: string; flags: string[]; values: string[] };

/** The command list: `names` in order, `one`/`all` the workload kinds as each language lists them. */
type Usage = { names: string[]; flags: string[]; one: string; all: string; keys: number };

/** `postmortem --help`: its two synopses, its flags and values, and the largest log it reads. */
type Postmortem = Omit<Help, 'kinds' | 'usage'> & { usage: string[]; limit: string };

/** `apply --help`: its help, and the remediation kinds and --lasts durations it names. */
type Apply = Omit<Help, 'kinds'> & { kinds: string[]; choices: string[] };

/** A flag and its description, wrapped under it (the description column starts at 17). */
const flagColumn = (flag: string | undefined, lines: string[]): string =>
  lines.map((line, i) => `${i === 0 ? `  ${flag ?? ''}  ` : ' '.repeat(17)}${line}`).join('\n');

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
    checkHelp: {
      en: ({ usage, kinds, flags: f, values: v }: Help) => `Usage: ${usage}

Before you apply: for every ${kinds} in the
manifests, says whether applying them starts a rollout (a new object, or a change to the
pod template) and whether that rollout will finish in the cluster as it is now, with the
manifest's own strategy. For a rollout that can never finish it prints the manifest
change that would let it, when there is one.
  ${f[0]}   a file, a folder (its ${v[0]} and ${v[1]} files) or "-" for stdin:
                        ${v[2]} or ${v[3]} output, YAML or JSON, Lists too
  ${f[1]}       namespace of manifests that name none (default: the context's, else ${v[4]})
  ${f[2]}  which cluster to read
  ${f[3]}      read the cluster from a ${v[5]} dump instead
  ${f[4]}          ${v[6]} (default), ${v[7]}, or ${v[8]} (GitHub code scanning)
  ${f[5]}          also write SARIF to FILE, from the same reading of the cluster
                        (written on every outcome, exit 2 and 3 included)
  ${f[6]}       exit 0 when the only doubts are rollouts whose outcome is not known
  ${f[7]}       findings the team accepted: ${v[9]}
  ${f[8]}           report findings of CODE (e.g. ${v[16]}) without failing (repeatable)
  ${f[9]}          the text and SARIF messages' language (default: ${v[12]}, ${v[13]} or ${v[14]}, else ${v[15]});
                        -o json, codes and exit statuses never translate
A finding is also accepted on its object: annotations ${v[10]}
and ${v[11]}. Accepted findings are reported, and do not fail the run.
Exit status: 0 every rollout started will finish, 1 one can never finish (or is not known),
2 bad arguments or manifests, 3 cluster unreachable or forbidden, 4 internal error.
`,
      ko: ({ usage, kinds, flags: f, values: v }: Help) => `사용법: ${usage}

적용하기 전에 확인합니다. 매니페스트의 모든 워크로드(${kinds})에 대해,
적용하면 롤아웃이 시작되는지(새 객체이거나 파드 템플릿이 바뀌는 경우), 그리고 매니페스트의
전략으로 지금 클러스터에서 그 롤아웃이 끝나는지 알려 줍니다. 끝날 수 없는 롤아웃에는,
끝나게 하는 매니페스트 변경이 있으면 그 변경을 보여 줍니다.
  ${f[0]}   파일, 폴더(그 안의 ${v[0]}, ${v[1]} 파일) 또는 표준 입력("-"):
                        ${v[2]}, ${v[3]} 출력, YAML이나 JSON, 여러 객체를 담은 목록도 읽습니다
  ${f[1]}       네임스페이스를 적지 않은 매니페스트의 네임스페이스(기본값: 컨텍스트의 네임스페이스, 없으면 ${v[4]})
  ${f[2]}  읽을 클러스터
  ${f[3]}      클러스터 대신 ${v[5]} 덤프를 읽습니다
  ${f[4]}          ${v[6]}(기본값), ${v[7]} 또는 ${v[8]}(GitHub 코드 스캐닝)
  ${f[5]}          같은 클러스터 읽기 결과로 SARIF 파일도 씁니다
                        (종료 코드 2와 3을 포함해 어떤 결과에서도 씁니다)
  ${f[6]}       결과를 알 수 없는 롤아웃만 있을 때는 종료 코드 0으로 끝냅니다
  ${f[7]}       팀이 수용한 판정: ${v[9]}
  ${f[8]}           그 코드의 판정(예: ${v[16]})은 보고하되 실패로 보지 않습니다(여러 번 가능)
  ${f[9]}          텍스트와 SARIF 메시지의 언어(기본값: ${v[12]}, ${v[13]}, ${v[14]} 순서, 없으면 ${v[15]})
                        JSON 출력, 코드, 종료 코드는 번역하지 않습니다
판정은 객체에서도 수용할 수 있습니다: 어노테이션 ${v[10]},
${v[11]}. 수용한 판정은 보고하지만 실패로 보지 않습니다.
종료 코드: 0 시작되는 롤아웃이 모두 끝남, 1 끝날 수 없는 롤아웃이 있음(또는 알 수 없음),
2 잘못된 인자나 매니페스트, 3 클러스터에 연결할 수 없거나 권한 없음, 4 내부 오류.
`,
    },
    diagnoseHelp: {
      en: ({ usage, flags: f, values: v }: Omit<Help, 'kinds'>) => `Usage: ${usage}

Explains why a workload's rollout is stuck or its pods crash, and what would fix it.
${v[0]}: ${v[1]} (or a bare ${v[2]}), ${v[3]}, ${v[4]},
${v[5]} (an Argo Rollout, ${v[6]}), as kubectl spells them.
  ${f[0]}   namespace of the workload (default: the context's namespace, else ${v[7]})
  ${f[1]}  read objects from a ${v[8]} dump ("-" for stdin)
                    instead of the cluster, e.g.
                    ${v[9]}
                    (a DaemonSet or StatefulSet: ${v[10]} or ${v[11]} and ${v[12]}
                    instead of ${v[13]}; an Argo Rollout: ${v[14]})
                    (several outputs may be joined, separated by ${v[15]}: ${v[16]})
  ${f[2]}  which cluster to read (live mode only)
  ${f[3]}  where Argo CD's Applications live, for a tracking id that
                    names no namespace (default: ${v[17]}, else ${v[18]})
  ${f[4]}      ${v[19]} (default) or ${v[20]}
  ${f[5]}      the text report's language (default: ${v[21]}, ${v[22]} or ${v[23]}, else ${v[24]});
                    -o json, codes and exit statuses never translate
Exit status: 0 no problem found, 1 problems found (${v[25]} included), 2 bad
arguments or input, 3 cluster unreachable or forbidden, 4 internal error (a bug, or a
check that failed with no verdict).
`,
      ko: ({ usage, flags: f, values: v }: Omit<Help, 'kinds'>) => `사용법: ${usage}

워크로드의 롤아웃이 멈춘 이유나 파드가 비정상 종료되는 이유와 조치 방법을 설명합니다.
${v[0]}: ${v[1]}(또는 ${v[2]}만), ${v[3]}, ${v[4]},
${v[5]}(Argo Rollout, ${v[6]}). kubectl과 같은 표기입니다.
  ${f[0]}   워크로드의 네임스페이스(기본값: 컨텍스트의 네임스페이스, 없으면 ${v[7]})
  ${f[1]}  클러스터 대신 ${v[8]} 덤프에서 객체를 읽습니다
                    (표준 입력은 "-"). 예:
                    ${v[9]}
                    (DaemonSet이나 StatefulSet은 ${v[13]} 대신 ${v[10]}, ${v[11]}와 ${v[12]},
                    Argo Rollout은 ${v[14]})
                    (여러 출력을 ${v[15]}로 구분해 이어 붙일 수 있습니다: ${v[16]})
  ${f[2]}  읽을 클러스터(실제 클러스터에서만)
  ${f[3]}  Argo CD 추적 값에 네임스페이스가 없을 때 Argo CD 애플리케이션이
                    있는 네임스페이스(기본값: ${v[17]}, 없으면 ${v[18]})
  ${f[4]}      ${v[19]}(기본값) 또는 ${v[20]}
  ${f[5]}      텍스트 보고서의 언어(기본값: ${v[21]}, ${v[22]}, ${v[23]} 순서, 없으면 ${v[24]})
                    JSON 출력, 코드, 종료 코드는 번역하지 않습니다
종료 코드: 0 문제 없음, 1 문제 있음(${v[25]} 포함), 2 잘못된 인자나 입력,
3 클러스터에 연결할 수 없거나 권한 없음, 4 내부 오류(버그, 또는 판정 없이 실패한 검사).
`,
    },
    explainHelp: {
      en: ({ usage, flags: f, values: v }: Omit<Help, 'kinds'>) => `Usage: ${usage}

Explains ${v[0]} messages and what would change each outcome
(which nodes a change opens). Reads stdin unless a message is given as arguments.
Several messages: one per line, or separated by blank lines (a wrapped line continues
the message above). With ${f[1]}: one object for one message, an array for several.
  ${f[0]}   ${v[1]} (default) or ${v[2]}
  ${f[2]}   the text's language (default: ${v[4]}, ${v[5]}, ${v[6]}; else ${v[7]});
                 JSON is never translated
For example:
  ${v[3]}
`,
      ko: ({ usage, flags: f, values: v }: Omit<Help, 'kinds'>) => `사용법: ${usage}

${v[0]} 메시지를 설명하고, 무엇을 바꾸면 결과가
달라지는지(어떤 변경이 어느 노드를 열어 주는지) 알려 줍니다. 인자로 메시지를 주지 않으면
표준 입력을 읽습니다. 메시지가 여럿이면 한 줄에 하나씩 주거나 빈 줄로 구분합니다(줄바꿈된
줄은 윗 메시지에 이어집니다). ${f[1]}이면 메시지 하나는 객체 하나로, 여럿은 배열로 출력합니다.
  ${f[0]}   ${v[1]}(기본값) 또는 ${v[2]}
  ${f[2]}   텍스트 출력의 언어(기본값: ${v[4]}, ${v[5]}, ${v[6]} 순서, 없으면 ${v[7]})
                 JSON 출력은 번역하지 않습니다
예:
  ${v[3]}
`,
    },
    undoHelp: {
      en: ({ usage, flags: f, values: v }: Omit<Help, 'kinds'>) => `Usage: ${usage}

Puts back what ${v[0]} wrote: apply prints ${v[1]} and keeps that Undo in ${v[2]} (else
${v[3]}, else ${v[4]}). Shows the
exact write and the API server's dry run, asks for confirmation, applies it only if the
workload is still as that apply left it, then follows the rollout (default ${f[1]}).
  ${f[0]}          undo without asking (for scripts); without it a terminal is required
  ${f[2]}   the output's language (default: ${v[5]}, ${v[6]} or ${v[7]}, else ${v[8]})
Exit status: 0 undone and rolled out; 1 not undone (refused: something moved on since;
failed; declined) or the rollout did not complete; 2 bad arguments, no such undo, or an
undo made for another cluster; 3 cluster unreachable or forbidden; 4 internal error.
`,
      ko: ({ usage, flags: f, values: v }: Omit<Help, 'kinds'>) => `사용법: ${usage}

${v[0]} 명령이 쓴 것을 되돌립니다.
${v[0]} 명령은 ${v[1]} 안내를 출력하고, 되돌리기 정보를
${v[2]}에 보관합니다(없으면 ${v[3]},
그것도 없으면 ${v[4]}). 실제로 쓸 내용과 API 서버의 드라이 런 결과를
보여 주고 확인을 받은 뒤, 워크로드가 그 적용이 남긴 상태 그대로일 때만 되돌리고 롤아웃을
지켜봅니다(기본값 ${f[1]}).
  ${f[0]}          묻지 않고 되돌립니다(스크립트용). 이 옵션이 없으면 터미널이 필요합니다
  ${f[2]}   출력 언어(기본값: ${v[5]}, ${v[6]}, ${v[7]} 순서, 없으면 ${v[8]})
종료 코드: 0 되돌리고 롤아웃 완료, 1 되돌리지 않음(그 뒤 무언가 바뀌어 거부, 실패, 거절) 또는
롤아웃 미완료, 2 잘못된 인자, 그런 되돌리기 없음, 또는 다른 클러스터용 되돌리기,
3 클러스터에 연결할 수 없거나 권한 없음, 4 내부 오류.
`,
    },
    keygenHelp: {
      en: ({ usage, names, holders, doc }: Keygen) => `Usage: ${usage}

Prints ${names.length} new keys as environment lines (ids default to today's date):
${names.map((name, i) => `  ${name.padEnd(37)} the ${holders[i]?.who ?? ''}${holders[i]?.only ? ' only' : ''}`).join('\n')}
To rotate, see ${doc}. The output is secret: write it to a file
or a secret store, not to a shared terminal log.
`,
      ko: ({ usage, names, holders, doc }: Keygen) => `사용법: ${usage}

새 키 ${names.length}개를 환경 변수 줄로 출력합니다(ID의 기본값은 오늘 날짜):
${names.map((name, i) => `  ${name.padEnd(37)} ${HOLDER_KO[holders[i]?.who ?? 'app'][holders[i]?.only ? 1 : 0]}`).join('\n')}
키 교체는 ${doc} 문서를 참고합니다. 출력은 비밀입니다: 파일이나 비밀 저장소에 쓰고,
공유 터미널 로그에는 남기지 않습니다.
`,
    },
    scanHelp: {
      en: ({ usage, kinds, flags: f, values: v }: Help) => `Usage: ${usage}

Lists workloads (${kinds}; a kind the cluster does not serve is skipped)
whose rollout is stuck, and those whose next rollout would deadlock (a surging strategy
on a scarce resource with no spare on the eligible nodes); apart from them, those paused
before their rollout finished (they wait for a person, or for a timed pause to end).
  ${f[0]}       namespace to scan (default: the context's namespace, else ${v[0]})
  ${f[1]}  scan every namespace
  ${f[2]}  which cluster to read
  ${f[3]}      read objects from a ${v[1]} dump ("-" for stdin)
  ${f[4]}          ${v[2]} (default) or ${v[3]}
  ${f[5]}          the text output's language (default: ${v[4]}, ${v[5]} or ${v[6]}, else ${v[7]});
                        -o json, codes and exit statuses never translate
Exit status: 0 nothing found (or only paused workloads), 1 workloads listed, 2 bad
arguments or input, 3 cluster unreachable or forbidden, 4 internal error (a bug).
`,
      ko: ({ usage, kinds, flags: f, values: v }: Help) => `사용법: ${usage}

롤아웃이 멈춘 워크로드와 다음 롤아웃이 교착 상태(deadlock)에 빠질 워크로드를 나열합니다.
교착 상태는 부족한 자원에 서지 전략을 쓰는데 배치될 수 있는 노드에 여유가 없는 경우입니다.
롤아웃을 마치기 전에 일시 중지된 워크로드(사람의 조치나 지정된 일시 중지 시간이 끝나기를 기다림)는 따로 나열합니다.
대상: ${kinds}(클러스터가 제공하지 않는 종류는 건너뜀).
  ${f[0]}       검사할 네임스페이스(기본값: 컨텍스트의 네임스페이스, 없으면 ${v[0]})
  ${f[1]}  모든 네임스페이스를 검사합니다
  ${f[2]}  읽을 클러스터
  ${f[3]}      ${v[1]} 덤프에서 객체를 읽습니다(표준 입력은 "-")
  ${f[4]}          ${v[2]}(기본값) 또는 ${v[3]}
  ${f[5]}          텍스트 출력의 언어(기본값: ${v[4]}, ${v[5]}, ${v[6]} 순서, 없으면 ${v[7]})
                        JSON 출력, 코드, 종료 코드는 번역하지 않습니다
종료 코드: 0 찾은 것 없음(또는 일시 중지된 워크로드뿐), 1 워크로드를 나열함, 2 잘못된
인자나 입력, 3 클러스터에 연결할 수 없거나 권한 없음, 4 내부 오류(버그).
`,
    },
    applyHelp: {
      en: ({ usage, flags: f, values: v, kinds, choices }: Apply) => `Usage: ${usage}

Diagnoses the workload (${v[0]}, ${v[1]}, ${v[2]}, ${v[3]}
for an Argo Rollout; a bare NAME is a ${v[16]}), shows exactly what the chosen remediation writes (the object
it patches, creates or deletes, and the patch) and what the API server's dry run says
it changes, asks for confirmation, applies it, and follows what it moves until that
completes, fails or ${f[4]} (default 300) passes: the rollout, or for ${v[10]} and
${v[11]} (no pod template change) the replacement pods becoming Ready. After a
write it prints ${v[4]} (see ${v[5]}).
${flagColumn(f[0], wrap(`a remediation kind (${kinds.join(', ')})`, 70))}
                 or a plan id from ${v[6]}
  ${f[1]}          apply without asking (for scripts); without it a terminal is required
  ${f[2]}      exclude-node only: how long the node exclusion lasts, one of
                 ${choices.join(', ')} (the choices beside Approve in chat);
                 default: the plan's own (24h).
                 Recorded on the workload as a chat approval records it; the workers
                 remove the exclusion when it ends. Refused (exit 2) for other plans.
  ${f[3]}  where Argo CD's Applications live, for the drift verdict
                 (default: ${v[7]}, else ${v[8]})
  ${f[5]}   the output's language (default: ${v[12]}, ${v[13]} or ${v[14]}, else ${v[15]});
                 patches, ids and exit statuses never translate
Exit status: 0 applied and rolled out (or its replacement pods Ready, or an Argo Rollout
reached a canary pause step: ${v[9]}); 1 not applied
(refused, failed, or declined at the prompt) or the rollout did not complete; 2 bad arguments, no such remediation, or
no terminal to confirm on without ${f[1]}; 3 cluster unreachable or forbidden; 4 internal
error (a bug).
`,
      ko: ({ usage, flags: f, values: v, kinds, choices }: Apply) => `사용법: ${usage}

워크로드를 진단합니다(${v[0]}, ${v[1]}, ${v[2]},
Argo Rollout은 ${v[3]}, NAME만 주면 ${v[16]}). 고른 조치가 쓰는 내용(패치하거나
만들거나 지우는 객체와 그 패치)과 API 서버의 드라이 런이 알려 주는 변경을 그대로 보여 주고,
확인을 받은 뒤 적용합니다. 그다음 롤아웃이 끝나거나 실패하거나 ${f[4]} 시간(기본값 300초)이
지날 때까지 지켜봅니다. ${v[10]}, ${v[11]} 조치는 파드 템플릿을 바꾸지 않으므로, 새 파드가
Ready가 될 때까지 지켜봅니다. 쓰기를 마치면 ${v[4]} 안내를
출력합니다(${v[5]} 참고).
${flagColumn(f[0], wrap(`조치 종류(${kinds.join(', ')})`, 70))}
                 또는 ${v[6]} 출력의 조치 계획 ID
  ${f[1]}          묻지 않고 적용합니다(스크립트용). 이 옵션이 없으면 터미널이 필요합니다
  ${f[2]}      exclude-node 전용: 노드 제외를 유지할 기간. ${choices.join(', ')} 중 하나
                 (채팅에서 승인 버튼 옆에 있는 선택지와 같음). 기본값: 조치 계획의 기간(24h).
                 채팅에서 승인할 때처럼 워크로드에 기록되고, 기간이 끝나면 워커가 제외를
                 해제합니다. 다른 조치 계획에 주면 거부합니다(종료 코드 2).
  ${f[3]}  Argo CD 애플리케이션이 있는 네임스페이스. 드리프트 판정에 씁니다
                 (기본값: ${v[7]}, 없으면 ${v[8]})
  ${f[5]}   출력 언어(기본값: ${v[12]}, ${v[13]}, ${v[14]} 순서, 없으면 ${v[15]}).
                 패치, ID, 종료 코드는 번역하지 않습니다
종료 코드: 0 적용하고 롤아웃 완료(또는 새 파드가 Ready, 또는 Argo Rollout이 카나리 일시 중지
단계에 도달: ${v[9]}), 1 적용하지 않음(거부, 실패, 확인에서 거절) 또는
롤아웃 미완료, 2 잘못된 인자, 그런 조치 없음, 또는 ${f[1]} 없이 확인할 터미널 없음,
3 클러스터에 연결할 수 없거나 권한 없음, 4 내부 오류(버그).
`,
    },
    proposeHelp: {
      en: ({ usage, flags: f, values: v }: Omit<Help, 'kinds'>) => `Usage: ${usage}

Proposes the lasting fix to the Git repository that applies the workload: the change the
proved plan makes live (its strategy; not the one-off restart), made in place in the
manifest that writes the workload (comments, key order and quoting kept), checked with
${v[0]} against the cluster (or the dump), pushed to a branch of its own
and opened as a pull request (a later run for the same incident updates it).
  ${f[0]}    the plan kind (${v[1]}, ...) or a plan id
  ${f[1]}       the repository to clone (${v[2]}; no credentials in the URL)
  ${f[2]}      the file or folder in it that holds the workload's manifest
                   (both left out: the ${v[3]} Application's source, or the ${v[4]}
                   ${v[5]}'s or ${v[6]}'s ${v[7]}, as read)
  ${f[3]}    the branch to propose into (default: the repository's default)
  ${f[4]}        clone, edit, check and print the diff; push nothing
  ${f[5]}    names the branch, so the same incident updates the same pull request
  ${f[6]}  said in the pull request's body
  ${f[7]} the REST API (default ${v[8]}, else ${v[9]};
                   ${v[10]}: ${v[11]})
  ${f[8]}   the token (a Secret's file); else ${v[12]}. Never printed.
  ${f[9]}   a chart's release (default: the workload's name), for ${v[13]}
  ${f[10]}    a chart's values file in the repository (default: the chart's ${v[14]})
  ${f[11]}     the pull request's language (default: ${v[15]}, ${v[16]}, ${v[17]})
Exit status: 0 proposed (or the dry run's diff, or nothing to change), 1 not proposed (check
says it can never finish, or the change is printed to make by hand), 2 bad arguments or
refused input, 3 cluster unreachable or forbidden, 4 internal error.
`,
      ko: ({ usage, flags: f, values: v }: Omit<Help, 'kinds'>) => `사용법: ${usage}

지속되는 조치를 워크로드를 적용하는 Git 저장소에 제안합니다. 증명된 조치 계획이 클러스터에
적용하는 변경(전략 변경, 한 번뿐인 재시작은 제외)을 워크로드를 쓰는 매니페스트에
제자리에서 반영합니다(주석, 키 순서, 따옴표는 그대로). 클러스터(또는 덤프)를 기준으로
${v[0]} 명령으로 검사한 뒤, 전용 브랜치에 푸시하고 풀 리퀘스트를 엽니다.
같은 장애로 다시 실행하면 그 풀 리퀘스트를 갱신합니다.
  ${f[0]}    조치 계획 종류(${v[1]}, ...) 또는 조치 계획 ID
  ${f[1]}       클론할 저장소(${v[2]}만, 주소에 자격 증명을 넣지 않습니다)
  ${f[2]}      그 저장소에서 워크로드의 매니페스트가 있는 파일이나 폴더
                   (둘 다 주지 않으면: ${v[3]} 애플리케이션의 소스, 또는 ${v[4]}
                   ${v[5]}, ${v[6]} 객체가 가리키는 ${v[7]} 객체를 읽어서 씁니다)
  ${f[3]}    제안할 대상 브랜치(기본값: 저장소의 기본 브랜치)
  ${f[4]}        클론, 수정, 검사 후 변경 내용을 출력만 하고 푸시하지 않습니다
  ${f[5]}    브랜치 이름에 쓰여, 같은 장애는 같은 풀 리퀘스트를 갱신합니다
  ${f[6]}  풀 리퀘스트 본문에 적습니다
  ${f[7]} ${v[18]}(기본값: ${v[8]}, 없으면 ${v[9]},
                   ${v[10]} 주소: ${v[11]})
  ${f[8]}   토큰(시크릿 파일). 없으면 ${v[12]}. 출력하지 않습니다.
  ${f[9]}   차트의 릴리스 이름(기본값: 워크로드 이름). ${v[13]}에 씁니다
  ${f[10]}    저장소 안의 차트 값 파일(기본값: 차트의 ${v[14]})
  ${f[11]}     풀 리퀘스트의 언어(기본값: ${v[15]}, ${v[16]}, ${v[17]} 순서)
종료 코드: 0 제안함(또는 드라이 런의 변경 내용, 또는 바꿀 것 없음), 1 제안하지 않음(check 명령이
끝날 수 없다고 판정, 또는 직접 할 변경을 출력함), 2 잘못된 인자나 거부된 입력,
3 클러스터에 연결할 수 없거나 권한 없음, 4 내부 오류.
`,
    },
    postmortemHelp: {
      en: ({ usage: u, flags: f, values: v, limit }: Postmortem) => `Usage: ${u[0]} [options]
       ${u[1]} [options]

Drafts the post-mortem of one incident: summary, timeline (${v[0]} and local time),
impact, analysis with the error messages quoted, the alternatives offered and not
offered, what was adopted, the result and the follow-ups.
  ${f[0]}   the app's and the workers' log (${v[1]} lines); lines that are not
                      audit records are skipped and counted (at most ${limit})
  ${f[1]}       ${v[2]} of the workload (${v[3]} when only one
                      cluster has it); optional with ${f[5]} when the log holds one
                      incident. Without ${f[5]}: read from the incident's record in
                      ${v[4]} (${v[5]}, kept ${v[6]} days)
  ${f[2]}        the language (default: ${v[7]}, ${v[8]}, ${v[9]}; else ${v[10]})
  ${f[3]}    ${v[11]} (default), or the incident's record as ${v[1]}
  ${f[4]}           the local time zone of the timeline, an ${v[12]} name such as
                      ${v[13]} (default: ${v[14]}, else ${v[0]})
Exit status: 0 drafted; 2 bad arguments or input; 3 ${v[4]} unreachable; 4 internal error.
`,
      ko: ({ usage: u, flags: f, values: v, limit }: Postmortem) => `사용법: ${u[0]} [옵션]
        ${u[1]} [옵션]

장애 하나의 포스트모템 초안을 씁니다: 요약, 타임라인(${v[0]}와 현지 시간), 영향,
에러 메시지를 인용한 분석, 제시한 대안과 제시하지 않은 대안, 채택한 것, 결과, 후속 조치.
  ${f[0]}   앱과 워커의 로그(${v[1]} 줄). 감사 기록이 아닌 줄은 건너뛰고 개수를
                      셉니다(최대 ${limit})
  ${f[1]}       워크로드의 ${v[2]}
                      (한 클러스터에만 있으면 ${v[3]}).
                      로그에 장애가 하나뿐이면 ${f[5]} 옵션과 함께 쓸 때 생략할 수
                      있습니다. ${f[5]} 옵션 없이 쓰면 ${v[4]}에 있는 장애 기록을
                      읽습니다(${v[5]}, ${v[6]}일 동안 보관)
  ${f[2]}        언어(기본값: ${v[7]}, ${v[8]}, ${v[9]} 순서, 없으면 ${v[10]})
  ${f[3]}    ${v[11]}(기본값) 또는 장애 기록 그대로의 ${v[1]}
  ${f[4]}           타임라인의 현지 시간대. ${v[12]} 이름(예: ${v[13]})
                      (기본값: ${v[14]}, 없으면 ${v[0]})
종료 코드: 0 초안 작성, 2 잘못된 인자나 입력, 3 ${v[4]}에 연결할 수 없음, 4 내부 오류.
`,
    },
    serveHelp: {
      en: ({ usage, kinds, flags: f, values: v }: Help) => `Usage: ${usage}

Serves the admission webhook: ${v[0]} answers ${v[1]}s (${v[2]})
for ${kinds}. Every request is allowed; one
that starts a rollout that can never finish gets a warning kubectl, helm and Argo CD print
(a namespace labelled ${v[3]} gets a refusal instead).
  ${f[0]}            ${v[4]} port (default 8443)
  ${f[1]}  the serving certificate and key (${v[5]}), read again when they change
  ${f[2]}       ${v[5]} of the ${v[22]} that signs the API server's client certificate (its
                    ${v[6]}): only callers it signed are answered
  ${f[3]}     a name (${v[7]} or ${v[8]}) the caller's certificate must carry; repeatable
  ${f[4]}      plain-${v[9]} port of ${v[10]}, ${v[11]} and ${v[12]} (default 8080; 0 = none)
  ${f[5]}       answer time past which a review gets no warning (default 2000)
  ${f[6]}   how long one read of a namespace serves reviews (default 10)
  ${f[7]}  which cluster to read (default: in-cluster, else ${v[13]})
  ${f[8]}            the warnings' language where a namespace does not name one with the
                    annotation ${v[14]} (default ${v[15]}, else ${v[16]})
${v[17]} ${v[10]}, ${v[17]} ${v[11]} (503 until the first read is done) and ${v[17]} ${v[12]} are served on
the probe port, never on the webhook's: with ${f[2]} no caller without a certificate
reaches the webhook's port at all.

With ${v[18]} and ${v[19]} set (and ${v[20]},
default ${v[21]}), a warned apply is announced to the app, which opens the workload's
incident thread in its alert channel; the answer never waits for it. Announcing needs
${f[2]}: only reviews the API server sent are announced.
`,
      ko: ({ usage, kinds, flags: f, values: v }: Help) => `사용법: ${usage}

어드미션 웹훅을 실행합니다: ${v[0]} 요청으로 오는 ${v[1]}(${v[2]})에 응답합니다.
대상: ${kinds}. 모든 요청을 허용하되, 끝날 수 없는 롤아웃을 시작하는 요청에는
kubectl, Helm, Argo CD가 출력하는 경고를 붙입니다. ${v[3]} 레이블이 붙은
네임스페이스에서는 경고 대신 거부합니다.
  ${f[0]}            ${v[4]} 포트(기본값 8443)
  ${f[1]}  서빙 인증서와 키(${v[5]}). 파일이 바뀌면 다시 읽습니다
  ${f[2]}       API 서버의 클라이언트 인증서에 서명한 ${v[22]}의 ${v[5]}
                    (${v[6]}에 설정한 것). 이 ${v[22]}가 서명한 호출자에게만 응답합니다
  ${f[3]}     호출자의 인증서에 있어야 하는 이름(${v[7]} 또는 ${v[8]}). 여러 번 줄 수 있습니다
  ${f[4]}      ${v[10]}, ${v[11]}, ${v[12]}를 제공하는 일반 ${v[9]} 포트(기본값 8080, 0이면 없음)
  ${f[5]}       이 시간(밀리초)을 넘긴 리뷰에는 경고를 붙이지 않습니다(기본값 2000)
  ${f[6]}   네임스페이스를 한 번 읽은 결과로 리뷰에 응답하는 시간(초, 기본값 10)
  ${f[7]}  읽을 클러스터(기본값: 클러스터 안에서 실행하면 그 클러스터,
                    아니면 ${v[13]})
  ${f[8]}            경고의 언어. 네임스페이스가 ${v[14]} 어노테이션으로
                    정하지 않았을 때 씁니다(기본값 ${v[15]}, 없으면 ${v[16]})
${v[17]} ${v[10]}, ${v[17]} ${v[11]}(첫 읽기를 마칠 때까지 503), ${v[17]} ${v[12]}는
웹훅 포트가 아니라 프로브 포트에서만 제공합니다. ${f[2]} 옵션을 주면 인증서가 없는
호출자는 웹훅 포트에 전혀 닿지 못합니다.

${v[18]}, ${v[19]}를 설정하면
(${v[20]}도 함께, 기본값 ${v[21]}) 경고한 적용을 앱에 알리고, 앱은 알림 채널에
워크로드의 장애 스레드를 엽니다. 응답은 이 알림을 기다리지 않습니다.
알리려면 ${f[2]} 옵션이 필요합니다: API 서버가 보낸 리뷰만 알립니다.
`,
    },
  }),
  {
    postmortemHelp: [
      {
        usage: ['rollout-doctor postmortem --from-audit FILE', 'rollout-doctor postmortem --incident ID'],
        flags: [...POSTMORTEM_FLAGS],
        values: [...POSTMORTEM_VALUES],
        limit: '256 MiB',
      },
    ],
    serveHelp: [
      {
        usage: 'rollout-doctor serve-admission --tls-cert FILE --tls-key FILE [--port P]',
        kinds: 'Deployment, Argo Rollout',
        flags: [...SERVE_FLAGS],
        values: [...SERVE_VALUES],
      },
    ],
    proposeHelp: [
      {
        usage: 'rollout-doctor propose TYPE/NAME -n NAMESPACE --remediation KIND|ID',
        flags: [...PROPOSE_FLAGS],
        values: [...PROPOSE_VALUES],
      },
    ],
    applyHelp: [
      {
        usage: 'rollout-doctor apply TYPE/NAME -n NAMESPACE --remediation KIND|ID [--yes]',
        flags: [...APPLY_FLAGS],
        values: [...APPLY_VALUES],
        kinds: ['set-rolling-update', 'set-recreate', 'taint-device'],
        choices: ['4h', '24h', 'until-removed'],
      },
    ],
    checkHelp: [
      {
        usage: 'rollout-doctor check -f PATH [-f PATH...] [--lang en|ko]',
        kinds: 'Deployment, Argo Rollout',
        flags: [...CHECK_FLAGS],
        values: [...CHECK_VALUES],
      },
    ],
    diagnoseHelp: [
      {
        usage: 'rollout-doctor diagnose TYPE/NAME [-n NAMESPACE] [--lang en|ko]',
        flags: [...DIAGNOSE_FLAGS],
        values: [...DIAGNOSE_VALUES],
      },
    ],
    explainHelp: [
      {
        usage: 'rollout-doctor explain-scheduling [-o text|json] [--lang en|ko] [MESSAGE...]',
        flags: [...EXPLAIN_FLAGS],
        values: [...EXPLAIN_VALUES],
      },
    ],
    undoHelp: [
      {
        usage: 'rollout-doctor undo ID|FILE [--yes]',
        flags: [...UNDO_FLAGS],
        values: [...UNDO_VALUES],
      },
    ],
    keygenHelp: [
      {
        usage: 'rollout-doctor keygen [--seal-id ID]',
        names: ['ROLLOUT_DOCTOR_PLAN_SEAL_KEY', 'ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS'],
        holders: [
          { who: 'workers', only: true },
          { who: 'app', only: false },
        ],
        doc: 'docs/operations.md ("Keys")',
      },
    ],
    scanHelp: [
      {
        usage: 'rollout-doctor scan [-n NAMESPACE | -A] [--lang en|ko]',
        kinds: 'Deployment, Argo Rollout',
        flags: [...SCAN_FLAGS],
        values: [...SCAN_VALUES],
      },
    ],
    usage: [
      {
        names: [...COMMAND_NAMES],
        flags: [...USAGE_FLAGS],
        one: 'Deployment, Argo Rollout',
        all: 'Deployment, Argo Rollout',
        keys: 5,
      },
    ],
  },
);
