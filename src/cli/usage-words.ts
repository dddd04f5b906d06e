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
/** The kinds a command takes, in the registry's order. */
type Kinds = { kinds: readonly string[] };

/** "Deployment, StatefulSet or Rollout" (with `s`: "Deployments, StatefulSets and Rollouts"), as workload-ref.ts kindsPhrase. */
function phrase(kinds: readonly string[], s: '' | 's', and: 'or' | 'and'): string {
  const words = kinds.map((k) => `${k}${s}`);
  return words.length > 1
    ? `${words.slice(0, -1).join(', ')} ${and} ${words.at(-1) ?? ''}`
    : (words[0] ?? '');
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
      en: (p: { given: readonly string[] }) =>
        `keygen takes no arguments, got: ${p.given.map(quoted).join(' ')}`,
      ko: (p: { given: readonly string[] }) =>
        `keygen 명령은 인자를 받지 않습니다. 주어진 인자: ${p.given.map(quoted).join(' ')}`,
    },
  }),
  {
    whichUndo: [{}],
    positiveTimeout: [{}],
    whichRemediation: [{}],
    badRemediation: [{ value: 'reboot', kinds: ['set-recreate', 'exclude-node'] }],
    badLasts: [{ value: '3d', choices: ['1h', '4h', '24h'] }],
    noArguments: [{ given: ['extra'] }],
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
