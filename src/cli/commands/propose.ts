/**
 * `rollout-doctor propose TYPE/NAME -n NS --remediation KIND|ID --repo URL --path PATH
 * [--base BRANCH] [--dry-run] [--from-file DUMP | --context C --kubeconfig F]`: the
 * proved plan's lasting change, proposed to the Git repository that owns the workload
 * (src/propose/). Exit: 0 pull request opened or updated (or the dry run's diff, or
 * nothing to change), 1 not proposed (check says it can never finish; nothing a
 * manifest keeps; the file not found: the change to make by hand is printed), 2 bad
 * arguments or refused input (a path out of the checkout, a symlink, a huge file), 3
 * cluster unreachable or forbidden, 4 internal error.
 */
import { firstLang, type Lang } from '../../i18n/lang.js';
import { translate, wordsIn } from '../../i18n/catalogue.js';
import { HELP_WORDS, PROPOSE_FLAGS, PROPOSE_VALUES } from '../help-words.js';
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { CheckSource } from '../../check/source.js';
import { proposeWords } from '../../propose/words.js';
import { toolsFrom } from '../../propose/tool.js';
import { readGitToken, TokenFileError } from '../../propose/token.js';
import type { ProposeResult } from '../../propose/propose.js';
import { cleanText } from '../../text/clean.js';
import { choosePlan } from './apply.js';
import {
  argocdNamespace,
  cliLang,
  clusterOptions,
  parseCommandArgs,
  wantsHelp,
  workloadRefArg,
} from '../args.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import { usageError, usageWords } from '../usage-words.js';
import type { OwnerSettingsRead, WorkloadRef } from '../../diagnosis/snapshot/types.js';
import type { GitSource } from '../../propose/owner-source.js';

const USAGE = `rollout-doctor propose TYPE/NAME -n NAMESPACE --remediation KIND|ID [--repo URL --path PATH]
                               [--base BRANCH] [--dry-run] [--incident ID] [--approved-by WHO]
                               [--thread URL] [--from-file DUMP | --context C --kubeconfig F]
                               [--github-api URL] [--github-repo OWNER/REPO] [--token-file F]`;

/** The help in `lang` (cli/help-words.ts): flags and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'proposeHelp', {
    usage: USAGE,
    flags: [...PROPOSE_FLAGS],
    values: [...PROPOSE_VALUES],
  });
}

export interface ProposeArgs {
  ref: WorkloadRef;
  namespaceGiven: boolean;
  remediation: string;
  repo?: string;
  path?: string;
  base?: string;
  dryRun: boolean;
  incident?: string;
  approvedBy?: string;
  thread?: string;
  fromFile?: string;
  context?: string;
  kubeconfig?: string;
  argocdNamespace?: string;
  githubApi?: string;
  githubRepo?: string;
  tokenFile?: string;
  lang?: string;
  release?: string;
  values?: string;
}

export function parseProposeArgs(argv: string[]): ProposeArgs {
  const string = { type: 'string' } as const;
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      namespace: { type: 'string', short: 'n' },
      remediation: string,
      repo: string,
      path: string,
      base: string,
      'dry-run': { type: 'boolean' },
      incident: string,
      'approved-by': string,
      thread: string,
      'from-file': string,
      context: string,
      kubeconfig: string,
      'argocd-namespace': string,
      'github-api': string,
      'github-repo': string,
      'token-file': string,
      lang: string,
      release: string,
      values: string,
    },
  });
  const ref = workloadRefArg(positionals, values.namespace, 'proposed');
  if (!values.remediation) throw usageError('whichRemediation', {});
  if ((values.repo === undefined) !== (values.path === undefined) || values.repo === '' || values.path === '')
    throw usageError('repoWithPath', {});
  if (values['from-file'] !== undefined && (values.context !== undefined || values.kubeconfig !== undefined))
    throw usageError('dumpOrCluster', {});
  if (values['github-repo'] !== undefined && !/^[\w.-]+\/[\w.-]+$/.test(values['github-repo']))
    throw usageError('githubRepo', { value: values['github-repo'], form: 'OWNER/REPO' });
  const optional = (key: keyof typeof values, as: keyof ProposeArgs) =>
    values[key] !== undefined ? { [as]: values[key] } : {};
  return {
    ref,
    namespaceGiven: values.namespace !== undefined,
    remediation: values.remediation,
    ...optional('repo', 'repo'),
    ...optional('path', 'path'),
    dryRun: values['dry-run'] ?? false,
    ...optional('base', 'base'),
    ...optional('incident', 'incident'),
    ...optional('approved-by', 'approvedBy'),
    ...optional('thread', 'thread'),
    ...optional('from-file', 'fromFile'),
    ...optional('argocd-namespace', 'argocdNamespace'),
    ...optional('github-api', 'githubApi'),
    ...optional('github-repo', 'githubRepo'),
    ...optional('token-file', 'tokenFile'),
    ...optional('lang', 'lang'),
    ...optional('release', 'release'),
    ...optional('values', 'values'),
    ...clusterOptions(values),
  };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout.write(help(cliLang(argv, io.env)));
    return EXIT.ok;
  }
  const args = parseProposeArgs(argv);
  const token = await readToken(args, io);
  const { diagnosis, source, against, owner, objects } = await readCluster(args, io);
  const lang = firstLang(args.lang, io.env['LC_ALL'], io.env['LC_MESSAGES'], io.env['LANG']);
  const plan = choosePlan(diagnosis.remediations, args.remediation);
  if (!plan) {
    const offered = diagnosis.remediations.map((p) => `${p.kind} (${p.id})`);
    const target = `${diagnosis.target.namespace}/${diagnosis.target.name}`;
    io.stderr.write(
      `${cleanText(`rollout-doctor propose: ${usageWords(lang, 'noRemediation', { value: args.remediation, target, offered })}`)}\n`,
    );
    return EXIT.usage;
  }
  const where = await whereInGit(args, owner, objects);
  if (typeof where === 'string') throw new UsageError(`no --repo and --path, and ${where}`);
  const { propose } = await import('../../propose/propose.js');
  const { checkRendered } = await import('../../propose/verify.js');
  const finding = diagnosis.findings.find((f) => f.code === plan.addresses) ?? diagnosis.findings[0];
  const result = await propose({
    plan,
    finding: { code: plan.addresses, summary: finding?.summary ?? '' },
    manual: diagnosis.manifestChanges ?? [],
    repo: where.repo,
    path: where.path,
    dryRun: args.dryRun,
    lang,
    github: {
      apiBase: args.githubApi ?? (io.env['ROLLOUT_DOCTOR_GITHUB_API'] || 'https://api.github.com'),
      ...(args.githubRepo ? ownerRepo(args.githubRepo) : {}),
    },
    check: (text, file) => checkRendered(text, file, plan.target, source),
    tools: toolsFrom(io.env),
    helm: {
      ...where.helm,
      ...(args.release ? { release: args.release } : {}),
      ...(args.values ? { values: args.values } : {}),
    },
    against,
    ...(token ? { token } : {}),
    ...((args.base ?? where.base) ? { base: args.base ?? where.base } : {}),
    ...(args.incident ? { incident: args.incident } : {}),
    ...(args.approvedBy ? { approvedBy: args.approvedBy } : {}),
    ...(args.thread ? { thread: args.thread } : {}),
  });
  return report(result, lang, io);
}

function ownerRepo(value: string): { owner: string; repo: string } {
  const [owner = '', repo = ''] = value.split('/');
  return { owner, repo };
}

/** The token from --token-file (a mounted Secret), else the environment; never printed. */
async function readToken(args: ProposeArgs, io: CliIo): Promise<string | undefined> {
  try {
    return await readGitToken(args.tokenFile, io.env);
  } catch (error) {
    if (error instanceof TokenFileError) throw new UsageError(error.message);
    throw error;
  }
}

interface Read {
  diagnosis: Diagnosis;
  source: CheckSource;
  against: string;
  /** The GitOps owner's object as read, and the dump's objects (a Flux GitRepository). */
  owner: OwnerSettingsRead | undefined;
  objects: readonly unknown[];
}

/** --repo and --path as given, else what the Argo CD or Flux owner names. */
async function whereInGit(
  args: ProposeArgs,
  owner: OwnerSettingsRead | undefined,
  objects: readonly unknown[],
): Promise<GitSource | string> {
  if (args.repo !== undefined && args.path !== undefined)
    return { repo: args.repo, path: args.path, from: 'the command line' };
  const { gitSourceOf } = await import('../../propose/owner-source.js');
  return gitSourceOf(owner, objects);
}

/** The diagnosis and check's source, from the dump or the cluster (the same reading for both). */
async function readCluster(args: ProposeArgs, io: CliIo): Promise<Read> {
  const { diagnose } = await import('../../engine/diagnose.js');
  const argocd = argocdNamespace(args.argocdNamespace, io.env);
  const withArgo = argocd !== undefined ? { argocdNamespace: argocd } : {};
  if (args.fromFile !== undefined) {
    const { withDump } = await import('../dump-file.js');
    const { dumpSource } = await import('../../check/dump-source.js');
    const { assembleSnapshot } = await import('../../diagnosis/snapshot/dump/assemble.js');
    return withDump(args.fromFile, io, {}, (objects) => {
      const snapshot = assembleSnapshot(args.ref, objects, withArgo);
      return {
        diagnosis: diagnose(snapshot),
        source: dumpSource(objects),
        against: `the dump ${args.fromFile === '-' ? 'on stdin' : args.fromFile}`,
        owner: snapshot.ownerSettings,
        objects,
      };
    });
  }
  const { createKubeClient } = await import('../../kube/client.js');
  const { collectSnapshot } = await import('../../kube/read/collector.js');
  const { liveSource } = await import('../../check/live-source.js');
  const client = createKubeClient({
    kubeconfig: args.kubeconfig,
    context: args.context,
    environment: io.env,
  });
  const namespace = args.namespaceGiven ? args.ref.namespace : (client.namespace ?? args.ref.namespace);
  const ref = { ...args.ref, namespace };
  const snapshot = await collectSnapshot(client, ref, withArgo);
  return {
    diagnosis: diagnose(snapshot),
    source: liveSource(client),
    against: `the cluster (context ${client.context})`,
    // A Flux owner's GitRepository is read with it (ownerSettings.source).
    owner: snapshot.ownerSettings,
    objects: [],
  };
}

function report(result: ProposeResult, lang: ReturnType<typeof firstLang>, io: CliIo): number {
  const w = wordsIn(proposeWords, lang);
  const out = (text: string): void => void io.stdout.write(`${cleanText(text)}\n`);
  switch (result.status) {
    case 'by-hand':
      out(w.notProposed({ why: result.why }));
      for (const change of result.manual) out(`${w.byHand({ where: change.where })}\n${change.diff}`);
      return EXIT.problems;
    case 'refused':
      if (result.diff) out(result.diff);
      if (result.check) {
        out(w.refusedCheck({ reason: result.check.reason ?? '' }));
        return EXIT.problems;
      }
      io.stderr.write(`${cleanText(`rollout-doctor propose: ${result.why}`)}\n`);
      return EXIT.usage;
    case 'unchanged':
      out(w.unchanged({ file: result.file }));
      return EXIT.ok;
    case 'dry-run':
      out(result.diff);
      out(w.checkLine({ check: result.check, rendered: result.file }));
      out(w.dryRun({ branch: result.branch }));
      return EXIT.ok;
    case 'pushed':
      out(result.diff);
      out(w.checkLine({ check: result.check, rendered: result.file }));
      out(w.pulled({ action: result.pull.action, url: result.pull.url }));
      return EXIT.ok;
  }
}
