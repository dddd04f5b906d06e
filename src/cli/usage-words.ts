/**
 * The command line's usage errors (exit 2) in every language: a bad flag, a
 * missing or extra argument, a value a flag does not take. What a person typed is a
 * parameter, quoted by the message itself in every language (quoted: controls shown as
 * escapes), so no language can print it raw; flags, commands and kinds stay as typed.
 * The English entries are the errors as they were, byte for byte. A UsageError made by
 * `usageError` carries its key and parameters, and run-cli.ts says it in the reader's
 * language; one made from a bare sentence stays English.
 */
import { defineMessages, registerCatalogue, translate, type ParamsOf } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { quoted } from '../text/clean.js';
import { UsageError } from './io.js';

type Value = { value: string };
type TzNotRead = Value & { variable: string; scheme: string; example: string; fixed: string };
/** The kinds a command takes, in the registry's order. */
type Kinds = { kinds: readonly string[] };

/** "Deployment, StatefulSet or Rollout" (with `s`: "Deployments, StatefulSets and Rollouts"), as workload-ref.ts kindsPhrase. */
function phrase(kinds: readonly string[], s: '' | 's', and: 'or' | 'and'): string {
  const words = kinds.map((k) => `${k}${s}`);
  return words.length > 1
    ? `${words.slice(0, -1).join(', ')} ${and} ${words.at(-1) ?? ''}`
    : (words[0] ?? '');
}

/** A file named on the command line. */
type File = { file: string };
/** The incidents a record or log holds: up to ten of them, and how many more. */
type Ids = { ids: readonly string[]; more: number };
/** The lines of an audit log read and skipped. */
type Skipped = { foreign: number; unreadable: number };

/** Incident ids, quoted, and how many more there are. */
function idList({ ids, more }: Ids, lang: Lang): string {
  const tail = more > 0 ? (lang === 'en' ? `, and ${more} more` : `, 외 ${more}개`) : '';
  return `${ids.map((n) => quoted(n)).join(', ')}${tail}`;
}

const USAGE_WORDS = registerCatalogue(
  'usage-errors',
  defineMessages({
    unknownCommand: {
      en: (p: Value) => `unknown command ${quoted(p.value)}`,
      ko: (p: Value) => `알 수 없는 명령입니다: ${quoted(p.value)}`,
    },
    unknownOption: {
      en: (p: Value) => `unknown option ${quoted(p.value)} (--help lists the options)`,
      ko: (p: Value) => `알 수 없는 옵션입니다: ${quoted(p.value)} (--help로 옵션 목록을 봅니다)`,
    },
    badOption: {
      en: (p: { problem: string }) => `${p.problem} (--help lists the options)`,
      ko: (p: { problem: string }) => `옵션이 잘못되었습니다: ${p.problem} (--help로 옵션 목록을 봅니다)`,
    },
    badNamespace: {
      en: (p: Value) =>
        `${quoted(p.value)} is not a valid namespace (lowercase letters, digits and '-', at most 63)`,
      ko: (p: Value) =>
        `${quoted(p.value)} 값은 올바른 네임스페이스가 아닙니다(영문 소문자, 숫자, '-'만, 최대 63자)`,
    },
    badArgocdNamespace: {
      en: (p: Value & { source: string }) =>
        `${p.source} ${quoted(p.value)} is not a valid namespace (lowercase letters, digits and '-', at most 63)`,
      ko: (p: Value & { source: string }) =>
        `${p.source} ${quoted(p.value)} 값은 올바른 네임스페이스가 아닙니다(영문 소문자, 숫자, '-'만, 최대 63자)`,
    },
    whichWorkload: {
      en: (p: Kinds & { types: string; kind: string }) =>
        `which ${phrase(p.kinds, '', 'or')}? Give TYPE/NAME (${p.types}), or NAME for a ${p.kind}`,
      ko: (p: Kinds & { types: string; kind: string }) =>
        `어느 워크로드(${p.kinds.join(', ')})인지 지정해야 합니다: TYPE/NAME(${p.types}), 또는 ${p.kind}라면 NAME만 줍니다`,
    },
    oneWorkload: {
      en: (p: Kinds & { given: readonly string[] }) =>
        `expected one ${phrase(p.kinds, '', 'or')}, got ${p.given.length}: ${p.given.map(quoted).join(' ')}`,
      ko: (p: Kinds & { given: readonly string[] }) =>
        `워크로드(${p.kinds.join(', ')}) 하나를 지정해야 하는데 ${p.given.length}개가 주어졌습니다: ${p.given.map(quoted).join(' ')}`,
    },
    onlyDiagnosed: {
      en: (p: Value & Kinds) =>
        `only ${phrase(p.kinds, 's', 'and')} can be diagnosed, not ${quoted(p.value)}`,
      ko: (p: Value & Kinds) =>
        `진단할 수 있는 종류는 ${p.kinds.join(', ')}뿐입니다. 주어진 종류: ${quoted(p.value)}`,
    },
    onlyRemediated: {
      en: (p: Value & Kinds) =>
        `only ${phrase(p.kinds, 's', 'and')} can be remediated, not ${quoted(p.value)}`,
      ko: (p: Value & Kinds) =>
        `조치할 수 있는 종류는 ${p.kinds.join(', ')}뿐입니다. 주어진 종류: ${quoted(p.value)}`,
    },
    onlyProposed: {
      en: (p: Value & Kinds) => `only ${phrase(p.kinds, 's', 'and')} can be proposed, not ${quoted(p.value)}`,
      ko: (p: Value & Kinds) =>
        `제안할 수 있는 종류는 ${p.kinds.join(', ')}뿐입니다. 주어진 종류: ${quoted(p.value)}`,
    },
    badName: {
      en: (p: Value & { kind: string }) =>
        `${quoted(p.value)} is not a valid ${p.kind} name (lowercase letters, digits, '-' and '.', starting and ending alphanumeric)`,
      ko: (p: Value & { kind: string }) =>
        `${quoted(p.value)} 값은 올바른 ${p.kind} 이름이 아닙니다(영문 소문자, 숫자, '-', '.'만 쓰고, 영문자나 숫자로 시작하고 끝나야 합니다)`,
    },
    outputFormat: {
      en: (p: Value & { formats: readonly string[] }) =>
        `-o must be ${phrase(p.formats, '', 'or')}, not ${quoted(p.value)}`,
      ko: (p: Value & { formats: readonly string[] }) =>
        `-o 값은 ${p.formats.join(', ')} 중 하나여야 합니다. 주어진 값: ${quoted(p.value)}`,
    },
    langFlag: {
      en: (p: Value & { langs: readonly string[] }) =>
        `--lang must be ${p.langs.join(' or ')}, not ${quoted(p.value)}`,
      ko: (p: Value & { langs: readonly string[] }) =>
        `--lang 값은 ${p.langs.join(', ')} 중 하나여야 합니다. 주어진 값: ${quoted(p.value)}`,
    },
    needsFile: {
      en: (p: { flag: string; stdin: boolean }) =>
        `${p.flag} needs a file name${p.stdin ? ' (or "-" for stdin)' : ''}`,
      ko: (p: { flag: string; stdin: boolean }) =>
        `${p.flag} 옵션에는 파일 이름이 필요합니다${p.stdin ? '(표준 입력은 "-")' : ''}`,
    },
    dumpOrCluster: {
      en: () => '--from-file reads a dump; --context and --kubeconfig only apply to a live cluster',
      ko: () =>
        '--from-file 옵션은 덤프를 읽습니다. --context와 --kubeconfig 옵션은 실제 클러스터에만 씁니다',
    },
    namespaceOrAll: {
      en: () => '-n and -A are exclusive: scan one namespace or all of them',
      ko: () => '-n과 -A 옵션은 함께 쓸 수 없습니다: 네임스페이스 하나 또는 전체를 스캔합니다',
    },
    unexpectedArgument: {
      en: (p: Value) => `unexpected argument ${quoted(p.value)}: name manifests with -f`,
      ko: (p: Value) => `예상하지 못한 인자입니다: ${quoted(p.value)}. 매니페스트는 -f로 지정합니다`,
    },
    whichManifests: {
      en: () => 'which manifests? Give -f FILE, -f FOLDER or -f - (stdin)',
      ko: () => '어느 매니페스트인지 지정해야 합니다: -f FILE, -f FOLDER 또는 -f -(표준 입력)',
    },
    fileOrFolder: {
      en: () => '-f needs a file or folder name (or "-" for stdin)',
      ko: () => '-f 옵션에는 파일이나 폴더 이름이 필요합니다(표준 입력은 "-")',
    },
    stdinOnce: {
      en: () => 'stdin can hold the manifests or the dump, not both',
      ko: () => '표준 입력으로는 매니페스트와 덤프 중 하나만 줄 수 있습니다',
    },
    warnCode: {
      en: (p: Value & { codes: string }) =>
        `--warn takes a finding code (${p.codes}), not ${quoted(p.value)}`,
      ko: (p: Value & { codes: string }) =>
        `--warn 옵션에는 판정 코드(${p.codes})를 줍니다. 주어진 값: ${quoted(p.value)}`,
    },
    whichUndo: {
      en: () => 'which undo? pass the id apply printed ("To undo: rollout-doctor undo ID") or its file',
      ko: () => '어느 되돌리기인지 지정해야 합니다: 적용할 때 출력된 되돌리기 ID나 그 파일을 줍니다',
    },
    positiveTimeout: {
      en: () => '--timeout must be a positive number of seconds',
      ko: () => '--timeout 값은 0보다 큰 초 단위 숫자여야 합니다',
    },
    whichRemediation: {
      en: () => 'which remediation? pass --remediation KIND or a plan id',
      ko: () => '어느 조치인지 지정해야 합니다: --remediation KIND 또는 조치 계획의 ID를 줍니다',
    },
    badRemediation: {
      en: (p: Value & { kinds: readonly string[] }) =>
        `--remediation ${quoted(p.value)} is neither a remediation kind (${p.kinds.join(', ')}) nor a plan id (KIND-<16 hex digits>, as diagnose prints it)`,
      ko: (p: Value & { kinds: readonly string[] }) =>
        `--remediation ${quoted(p.value)} 값은 조치 종류(${p.kinds.join(', ')})도, 조치 계획 ID(diagnose 명령이 출력하는 KIND-<16자리 16진수>)도 아닙니다`,
    },
    badLasts: {
      en: (p: Value & { choices: readonly string[] }) =>
        `--lasts ${quoted(p.value)} is not a duration a node exclusion may last: one of ${p.choices.join(', ')}`,
      ko: (p: Value & { choices: readonly string[] }) =>
        `--lasts ${quoted(p.value)} 값은 노드 제외를 유지할 수 있는 기간이 아닙니다. 가능한 값: ${p.choices.join(', ')}`,
    },
    noArguments: {
      en: (p: { command: string; given: readonly string[] }) =>
        `${p.command} takes no arguments, got: ${p.given.map(quoted).join(' ')}`,
      ko: (p: { command: string; given: readonly string[] }) =>
        `${p.command} 명령은 인자를 받지 않습니다. 주어진 인자: ${p.given.map(quoted).join(' ')}`,
    },
    lastsOnlyExcludeNode: {
      en: (p: Value) =>
        `--lasts is only for an exclude-node remediation (a node exclusion); ${quoted(p.value)} writes none`,
      ko: (p: Value) =>
        `--lasts 옵션은 exclude-node 조치(노드 제외)에만 씁니다. ${quoted(p.value)} 조치는 노드 제외를 쓰지 않습니다`,
    },
    repoWithPath: {
      en: () =>
        'give --repo URL and --path PATH together, or neither (then the Argo CD or Flux owner says where)',
      ko: () =>
        '--repo와 --path 옵션은 함께 주거나 둘 다 빼야 합니다(빼면 워크로드를 적용하는 Argo CD나 Flux 객체가 위치를 알려 줍니다)',
    },
    githubRepo: {
      en: (p: Value & { form: string }) => `--github-repo must be ${p.form}, not ${quoted(p.value)}`,
      ko: (p: Value & { form: string }) =>
        `--github-repo 값은 ${p.form} 형식이어야 합니다. 주어진 값: ${quoted(p.value)}`,
    },
    badTimeZone: {
      en: (p: Value & { scheme: string; example: string }) =>
        `--tz ${quoted(p.value)} is not a time zone this runtime knows (an ${p.scheme} name such as ${p.example})`,
      ko: (p: Value & { scheme: string; example: string }) =>
        `--tz ${quoted(p.value)} 값은 이 런타임이 아는 시간대가 아닙니다(${p.example} 같은 ${p.scheme} 이름을 줍니다)`,
    },
    tzNotRead: {
      en: (p: TzNotRead) =>
        `${p.variable}=${quoted(p.value)} is not a zone this reads (an ${p.scheme} name such as ${p.example}, or a fixed offset such as ${p.fixed}): the local times are in UTC; --tz ${p.example} sets the zone`,
      ko: (p: TzNotRead) =>
        `${p.variable}=${quoted(p.value)} 값을 시간대로 읽을 수 없습니다(${p.example} 같은 ${p.scheme} 이름이나 ${p.fixed} 같은 고정 오프셋만 읽습니다). 현지 시각 열은 UTC로 표시합니다. 시간대는 --tz ${p.example}처럼 지정하세요`,
    },
    whichIncident: {
      en: () => 'which incident? give --from-audit FILE, or --incident ID to read its record in Redis',
      ko: () =>
        '어느 장애인지 지정해야 합니다: --from-audit FILE, 또는 Redis에 있는 기록을 읽으려면 --incident ID를 줍니다',
    },
    incidentsInLog: {
      en: (p: Ids) =>
        `the log holds ${p.ids.length + p.more} incidents; choose one with --incident: ${idList(p, 'en')}`,
      ko: (p: Ids) =>
        `로그에 장애가 ${p.ids.length + p.more}개 있습니다. --incident 옵션으로 하나를 고릅니다: ${idList(p, 'ko')}`,
    },
    severalClusters: {
      en: (p: Value & Ids) => `${quoted(p.value)} is in several clusters: ${idList(p, 'en')}`,
      ko: (p: Value & Ids) => `${quoted(p.value)} 장애가 여러 클러스터에 있습니다: ${idList(p, 'ko')}`,
    },
    noSuchIncident: {
      en: (p: Value & Ids) =>
        `no incident ${quoted(p.value)} in the record${p.ids.length > 0 ? `; it holds ${idList(p, 'en')}` : ''}`,
      ko: (p: Value & Ids) =>
        `기록에 ${quoted(p.value)} 장애가 없습니다${p.ids.length > 0 ? `. 기록에 있는 장애: ${idList(p, 'ko')}` : ''}`,
    },
    noAuditEvent: {
      en: (p: Skipped & { file: string }) => {
        const skipped = [
          ...(p.foreign > 0 ? [`${p.foreign} lines that are not audit records`] : []),
          ...(p.unreadable > 0
            ? [`${p.unreadable} audit records of a shape this version does not read`]
            : []),
        ];
        return `${quoted(p.file)} holds no audit event${skipped.length ? ` (${skipped.join(', ')})` : ''}`;
      },
      ko: (p: Skipped & { file: string }) => {
        const skipped = [
          ...(p.foreign > 0 ? [`감사 기록이 아닌 줄 ${p.foreign}개`] : []),
          ...(p.unreadable > 0 ? [`이 버전이 읽지 못하는 형태의 감사 기록 ${p.unreadable}개`] : []),
        ];
        return `${quoted(p.file)} 파일에 감사 이벤트가 없습니다${skipped.length ? `(${skipped.join(', ')})` : ''}`;
      },
    },
    cannotRead: {
      en: (p: { file: string; code: string }) => `cannot read ${quoted(p.file)}: ${p.code}`,
      ko: (p: { file: string; code: string }) => `${quoted(p.file)} 파일을 읽을 수 없습니다: ${p.code}`,
    },
    noSuchFile: {
      en: (p: File) => `cannot read ${quoted(p.file)}: no such file`,
      ko: (p: File) => `${quoted(p.file)} 파일을 읽을 수 없습니다: 파일이 없습니다`,
    },
    permissionDenied: {
      en: (p: File) => `cannot read ${quoted(p.file)}: permission denied`,
      ko: (p: File) => `${quoted(p.file)} 파일을 읽을 수 없습니다: 권한이 없습니다`,
    },
    nameTooLong: {
      en: (p: File) => `cannot read ${quoted(p.file)}: the name is too long`,
      ko: (p: File) => `${quoted(p.file)} 파일을 읽을 수 없습니다: 이름이 너무 깁니다`,
    },
    notDirectory: {
      en: (p: File) => `cannot read ${quoted(p.file)}: a part of the path is not a directory`,
      ko: (p: File) => `${quoted(p.file)} 파일을 읽을 수 없습니다: 경로의 일부가 디렉터리가 아닙니다`,
    },
    tooManyLinks: {
      en: (p: File) => `cannot read ${quoted(p.file)}: too many symbolic links`,
      ko: (p: File) => `${quoted(p.file)} 파일을 읽을 수 없습니다: 심볼릭 링크가 너무 많습니다`,
    },
    notRegularFile: {
      en: (p: { file: string }) => `${quoted(p.file)} is not a regular file`,
      ko: (p: { file: string }) => `${quoted(p.file)} 경로는 일반 파일이 아닙니다`,
    },
    auditTooLarge: {
      en: (p: { file: string; size: number; bound: number; grep: string }) =>
        `${quoted(p.file)} is ${p.size} bytes, over the ${p.bound}-byte bound: cut it to the incident's days (${p.grep})`,
      ko: (p: { file: string; size: number; bound: number; grep: string }) =>
        `${quoted(p.file)} 파일은 ${p.size}바이트로, 한도 ${p.bound}바이트를 넘습니다: 장애가 있던 날짜만 잘라 냅니다(${p.grep})`,
    },
    auditGrew: {
      en: (p: { file: string; bound: number }) => `${quoted(p.file)} grew over the ${p.bound}-byte bound`,
      ko: (p: { file: string; bound: number }) =>
        `${quoted(p.file)} 파일이 읽는 동안 한도 ${p.bound}바이트를 넘게 커졌습니다`,
    },
    noRemediation: {
      en: (p: Value & { target: string; offered: readonly string[] }) =>
        `no remediation ${quoted(p.value)} for ${p.target}; offered: ${p.offered.join(', ') || 'none'}`,
      ko: (p: Value & { target: string; offered: readonly string[] }) =>
        `${p.target} 워크로드에는 ${quoted(p.value)} 조치가 없습니다. 제시된 조치: ${p.offered.join(', ') || '없음'}`,
    },
    noDuration: {
      en: (p: { ttl: string; plan: string }) =>
        `--lasts ${p.ttl}: ${p.plan} writes no node exclusion, so it has no duration to choose`,
      ko: (p: { ttl: string; plan: string }) =>
        `--lasts ${p.ttl}: ${p.plan} 조치는 노드 제외를 쓰지 않으므로 기간을 고를 수 없습니다`,
    },
    noIncidentRecord: {
      en: (p: Value & { form: string }) => `no record of incident ${quoted(p.value)} in Redis (${p.form})`,
      ko: (p: Value & { form: string }) =>
        `Redis에 ${quoted(p.value)} 장애의 기록이 없습니다(${p.form} 형식으로 줍니다)`,
    },
    incidentNotKept: {
      en: (p: Value & { setting: string }) =>
        `no record of incident ${quoted(p.value)} in Redis: none was kept, or it is older than ${p.setting}`,
      ko: (p: Value & { setting: string }) =>
        `Redis에 ${quoted(p.value)} 장애의 기록이 없습니다: 보관된 적이 없거나 ${p.setting}보다 오래되었습니다`,
    },
    tlsRequired: {
      en: (p: { scheme: string }) =>
        `--tls-cert and --tls-key are required: the API server calls webhooks over ${p.scheme} only`,
      ko: (p: { scheme: string }) =>
        `--tls-cert와 --tls-key 옵션이 필요합니다: API 서버는 웹훅을 ${p.scheme}로만 호출합니다`,
    },
    clientNameNeedsCa: {
      en: () => '--client-name needs --client-ca: a name is only checked on a certificate the CA signed',
      ko: () =>
        '--client-name 옵션에는 --client-ca 옵션이 필요합니다: 이름은 그 인증 기관이 서명한 인증서에서만 확인합니다',
    },
    wholeNumber: {
      en: (p: Value & { flag: string; min: number; max: number }) =>
        `${p.flag} must be a whole number from ${p.min} to ${p.max}, not ${quoted(p.value)}`,
      ko: (p: Value & { flag: string; min: number; max: number }) =>
        `${p.flag} 값은 ${p.min}에서 ${p.max} 사이의 정수여야 합니다. 주어진 값: ${quoted(p.value)}`,
    },
    announceNeedsCa: {
      en: (p: { names: readonly string[] }) =>
        `announcing warned applies needs --client-ca: without it anyone who reaches the port could open incident threads; give the CA that signs the API server's client certificate, or unset ${p.names.join(' and ')}`,
      ko: (p: { names: readonly string[] }) =>
        `경고한 적용을 알리려면 --client-ca 옵션이 필요합니다: 이 옵션이 없으면 포트에 닿는 누구나 장애 스레드를 열 수 있습니다. API 서버의 클라이언트 인증서에 서명한 인증 기관을 주거나, ${p.names.join(', ')} 설정을 지웁니다`,
    },
    announceNeedsBoth: {
      en: (p: { names: readonly string[] }) =>
        `announcing warned applies needs both ${p.names.join(' and ')} (or neither)`,
      ko: (p: { names: readonly string[] }) =>
        `경고한 적용을 알리려면 ${p.names.join(', ')} 설정이 모두 필요합니다(또는 둘 다 빼야 합니다)`,
    },
    badSigningKey: {
      en: (p: { name: string; problem: string }) => `${p.name} is not a valid key (${p.problem})`,
      ko: (p: { name: string; problem: string }) => `${p.name} 값은 올바른 키가 아닙니다(${p.problem})`,
    },
    clusterLabel: {
      en: (p: { name: string; form: string }) => `${p.name} must be a ${p.form} label`,
      ko: (p: { name: string; form: string }) =>
        `${p.name} 값은 ${p.form} 레이블이어야 합니다(영문 소문자, 숫자, '-'만, 최대 63자)`,
    },
    cannotServe: {
      en: (p: { cert: string; key: string; problem: string }) =>
        `cannot serve with ${quoted(p.cert)} and ${quoted(p.key)}: ${p.problem}`,
      ko: (p: { cert: string; key: string; problem: string }) =>
        `${quoted(p.cert)}, ${quoted(p.key)} 파일로 웹훅을 실행할 수 없습니다: ${p.problem}`,
    },
  }),
  {
    whichUndo: [{}],
    positiveTimeout: [{}],
    whichRemediation: [{}],
    badRemediation: [{ value: 'reboot', kinds: ['set-recreate', 'exclude-node'] }],
    badLasts: [{ value: '3d', choices: ['1h', '4h', '24h'] }],
    noArguments: [
      { command: 'keygen', given: ['extra'] },
      { command: 'postmortem', given: ['extra'] },
    ],
    lastsOnlyExcludeNode: [{ value: 'set-recreate' }],
    repoWithPath: [{}],
    githubRepo: [{ value: 'acme', form: 'OWNER/REPO' }],
    badTimeZone: [{ value: 'Mars/Base', scheme: 'IANA', example: 'Asia/Seoul' }],
    tzNotRead: [
      {
        variable: 'TZ',
        value: 'EST5EDT,M3.2.0,M11.1.0',
        scheme: 'IANA',
        example: 'Asia/Seoul',
        fixed: 'KST-9',
      },
    ],
    whichIncident: [{}],
    incidentsInLog: [
      { ids: ['prod/shop/web', 'prod/shop/api'], more: 0 },
      { ids: Array.from({ length: 10 }, (_, i) => `c/ns/w${i}`), more: 2 },
    ],
    severalClusters: [{ value: 'shop/web', ids: ['prod/shop/web', 'stage/shop/web'], more: 0 }],
    noSuchIncident: [
      { value: 'shop/nope', ids: ['prod/shop/web'], more: 0 },
      { value: 'shop/nope', ids: [], more: 0 },
    ],
    noAuditEvent: [
      { file: 'audit.log', foreign: 3, unreadable: 1 },
      { file: 'audit.log', foreign: 0, unreadable: 0 },
    ],
    cannotRead: [{ file: 'audit.log', code: 'EIO' }],
    noSuchFile: [{ file: 'audit.log' }],
    permissionDenied: [{ file: 'audit.log' }],
    nameTooLong: [{ file: 'audit.log' }],
    notDirectory: [{ file: 'audit.log/x' }],
    tooManyLinks: [{ file: 'audit.log' }],
    tlsRequired: [{ scheme: 'HTTPS' }],
    noRemediation: [
      {
        value: 'set-recreate',
        target: 'shop/web',
        offered: ['exclude-node (exclude-node-0123456789abcdef)'],
      },
      { value: 'set-recreate', target: 'shop/web', offered: [] },
    ],
    noDuration: [{ ttl: '4h', plan: 'set-recreate (set-recreate-0123456789abcdef)' }],
    noIncidentRecord: [{ value: 'web', form: 'CLUSTER/NAMESPACE/NAME' }],
    incidentNotKept: [{ value: 'prod/shop/web', setting: 'ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS' }],
    notRegularFile: [{ file: 'audit' }],
    auditTooLarge: [{ file: 'audit.log', size: 300000000, bound: 268435456, grep: `grep '"audit":true'` }],
    auditGrew: [{ file: 'audit.log', bound: 268435456 }],
    clientNameNeedsCa: [{}],
    wholeNumber: [{ value: '99999', flag: '--port', min: 0, max: 65535 }],
    announceNeedsCa: [{ names: ['REDIS_URL', 'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY'] }],
    announceNeedsBoth: [{ names: ['REDIS_URL', 'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY'] }],
    badSigningKey: [{ name: 'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY', problem: 'no key id' }],
    clusterLabel: [{ name: 'ROLLOUT_DOCTOR_CLUSTER', form: 'DNS-1123' }],
    cannotServe: [{ cert: 'tls.crt', key: 'tls.key', problem: 'bad PEM' }],
    unknownCommand: [{ value: 'nope' }],
    unknownOption: [{ value: '--nope' }],
    badOption: [{ problem: "Option '-n, --namespace <value>' argument missing" }],
    badNamespace: [{ value: 'Shop' }],
    badArgocdNamespace: [{ value: 'Argo', source: '--argocd-namespace' }],
    whichWorkload: [
      { kinds: ['Deployment', 'Rollout'], types: 'deployment/NAME, rollout/NAME', kind: 'Deployment' },
    ],
    oneWorkload: [{ kinds: ['Deployment', 'Rollout'], given: ['web', 'api'] }],
    onlyDiagnosed: [{ value: 'job', kinds: ['Deployment', 'Rollout'] }],
    onlyRemediated: [{ value: 'job', kinds: ['Deployment', 'Rollout'] }],
    onlyProposed: [{ value: 'job', kinds: ['Deployment', 'Rollout'] }],
    badName: [{ value: 'Web_1', kind: 'Deployment' }],
    outputFormat: [
      { value: 'yaml', formats: ['text', 'json'] },
      { value: 'yaml', formats: ['text', 'json', 'sarif'] },
    ],
    langFlag: [{ value: 'fr', langs: ['en', 'ko'] }],
    needsFile: [
      { flag: '--from-file', stdin: true },
      { flag: '--sarif', stdin: false },
    ],
    dumpOrCluster: [{}],
    namespaceOrAll: [{}],
    unexpectedArgument: [{ value: 'deploy.yaml' }],
    whichManifests: [{}],
    fileOrFolder: [{}],
    stdinOnce: [{}],
    warnCode: [{ value: 'Nope', codes: 'RolloutSurgeDeadlock, Unschedulable' }],
  },
);

type Key = keyof typeof USAGE_WORDS & string;

/** A usage error said by the catalogue: English as its message, the key and parameters for other languages. */
class KeyedUsageError<K extends Key = Key> extends UsageError {
  // Private: the error compares equal to a UsageError with the same message, as before.
  readonly #key: K;
  readonly #params: ParamsOf<(typeof USAGE_WORDS)[K]>;

  constructor(key: K, params: ParamsOf<(typeof USAGE_WORDS)[K]>) {
    super(USAGE_WORDS[key].en(params as never));
    this.#key = key;
    this.#params = params;
  }

  /** The message in `lang`. */
  in(lang: Lang): string {
    const message = USAGE_WORDS[this.#key][lang] as (params: ParamsOf<(typeof USAGE_WORDS)[K]>) => string;
    return message(this.#params);
  }
}

/** A usage error keyed in the catalogue (`usageError('langFlag', { value, langs })`). */
export function usageError<K extends Key>(key: K, params: ParamsOf<(typeof USAGE_WORDS)[K]>): UsageError {
  return new KeyedUsageError(key, params);
}

/** A usage error's message in `lang`: a keyed one's words, else its own (English). */
export function usageMessage(error: UsageError, lang: Lang): string {
  return error instanceof KeyedUsageError && lang !== 'en' ? error.in(lang) : error.message;
}

/** The message of the catalogue's `key` in `lang` (for lines not thrown, as the unknown command's). */
export function usageWords<K extends Key>(
  lang: Lang,
  key: K,
  params: ParamsOf<(typeof USAGE_WORDS)[K]>,
): string {
  return (translate as (c: typeof USAGE_WORDS, l: Lang, k: K, p: unknown) => string)(
    USAGE_WORDS,
    lang,
    key,
    params,
  );
}

/** The first ten of `ids`, and how many more (for incidentsInLog, severalClusters, noSuchIncident). */
export function idsListed(ids: readonly string[]): Ids {
  return { ids: ids.slice(0, 10), more: Math.max(0, ids.length - 10) };
}

/** Why a file could not be opened, by its error code. */
const READ_PROBLEMS: Partial<
  Record<string, 'noSuchFile' | 'permissionDenied' | 'nameTooLong' | 'notDirectory' | 'tooManyLinks'>
> = {
  ENOENT: 'noSuchFile',
  EACCES: 'permissionDenied',
  ENAMETOOLONG: 'nameTooLong',
  ENOTDIR: 'notDirectory',
  ELOOP: 'tooManyLinks',
};

/** The usage error of a file that could not be opened: its problem by error code, else the code itself. */
export function cannotRead(file: string, code: string): UsageError {
  const key = READ_PROBLEMS[code];
  return key ? usageError(key, { file }) : usageError('cannotRead', { file, code });
}
