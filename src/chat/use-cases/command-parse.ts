import { clusterSchema, namespaceSchema, resourceNameSchema } from '../../queue/schemas.js';
import type { Rich, Span } from '../model.js';
import { br, code, join, plain, rich, say, strong, text } from '../../message/rich.js';
import {
  DEFAULT_WORKLOAD_KIND,
  kindsPhrase,
  titlesPhrase,
  splitTypeName,
  typeOfKind,
  type WorkloadKind,
} from '../../diagnosis/workload-ref.js';

/** What the command (`/rollout-doctor <text>`, `@rollout-doctor <text>`) asks for, once validated. */
export type ParsedCommand =
  | { kind: 'help' }
  | { kind: 'diagnose'; workload: WorkloadKind; namespace: string; name: string; cluster: string }
  | { kind: 'scan'; namespace: string | undefined; cluster: string }
  | { kind: 'invalid'; problem: Rich };

/** The usage, for the platform's way of calling the app (`/rollout-doctor`, `@rollout-doctor`). */
export function usage(command: string): Rich {
  const line = (args: string, ...what: (Span | Rich)[]): Rich => rich(br, code(`${command}${args}`), ...what);
  return rich(
    strong('Usage'),
    line(' NAME [-n NAMESPACE] [--cluster CLUSTER]', text(': why is deployment NAME stuck or crashing?')),
    line(' deployment/NAME [-n NAMESPACE] [--cluster CLUSTER]', text(': the same')),
    line(
      ' daemonset/NAME [-n NAMESPACE] [--cluster CLUSTER]',
      say`: the same for a DaemonSet (${code('ds/NAME')}); ${code('statefulset/NAME')} (${code('sts/NAME')}) and ${code('rollout/NAME')} (an Argo Rollout) alike`,
    ),
    line(' diagnose TYPE/NAME [-n NAMESPACE]', text(': the same, as the command line says it')),
    line(
      ' scan [-n NAMESPACE] [--cluster CLUSTER]',
      text(`: find ${titlesPhrase('s', 'and')} that are stuck or at risk`),
    ),
    line(' help', text(': this message')),
    say`\nNAMESPACE defaults to ${code('default')}; ${code('scan')} without ${code('-n')} scans every namespace.`,
  );
}

/**
 * Parses and validates the command text. Names must be DNS-1123, the cluster one
 * this app knows; anything else is `invalid` with a sentence saying what.
 * @example parseCommand('web -n shop', { clusters: ['default'], defaultCluster: 'default' })
 */
export function parseCommand(
  text: string,
  options: { clusters: readonly string[]; defaultCluster: string },
): ParsedCommand {
  const tokens = text
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
  if (tokens.length === 0 || tokens[0] === 'help' || tokens[0] === '--help' || tokens[0] === '-h') {
    return tokens.length <= 1
      ? { kind: 'help' }
      : { kind: 'invalid', problem: say`${code('help')} takes no arguments.` };
  }
  let namespace: string | undefined;
  let cluster: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    const value = tokens[i + 1];
    const takeValue = (flag: string): string | { problem: Rich } =>
      value === undefined || value.startsWith('-') ? { problem: say`${flag} needs a value.` } : value;
    if (token === '-n' || token === '--namespace') {
      if (namespace !== undefined)
        return { kind: 'invalid', problem: plain('the namespace is given twice.') };
      const v = takeValue(token);
      if (typeof v !== 'string') return { kind: 'invalid', ...v };
      namespace = v;
      i += 1;
    } else if (token.startsWith('--namespace=') || token.startsWith('--cluster=')) {
      const [flag, v = ''] = token.split('=', 2);
      if (flag === '--namespace') namespace = v;
      else cluster = v;
    } else if (token === '--cluster') {
      if (cluster !== undefined) return { kind: 'invalid', problem: plain('the cluster is given twice.') };
      const v = takeValue(token);
      if (typeof v !== 'string') return { kind: 'invalid', ...v };
      cluster = v;
      i += 1;
    } else if (token.startsWith('-')) {
      return { kind: 'invalid', problem: say`unknown option ${code(token.slice(0, 40))}.` };
    } else {
      positional.push(token);
    }
  }
  const chosenCluster = cluster ?? options.defaultCluster;
  if (!clusterSchema.safeParse(chosenCluster).success || !options.clusters.includes(chosenCluster)) {
    return {
      kind: 'invalid',
      problem: say`unknown cluster ${code(chosenCluster.slice(0, 63))}; known: ${join(
        options.clusters.map((c) => rich(code(c))),
        ', ',
      )}.`,
    };
  }
  if (namespace !== undefined && !namespaceSchema.safeParse(namespace).success) {
    return {
      kind: 'invalid',
      problem: say`${code(namespace.slice(0, 63))} is not a valid namespace (DNS-1123 label: lowercase letters, digits, '-').`,
    };
  }
  // `diagnose deployment/NAME`, as the command line says it (a Deployment named
  // "diagnose" alone is still that Deployment).
  if (positional[0] === 'diagnose' && positional.length === 2) positional.shift();
  const [first, ...rest] = positional;
  if (first === 'scan') {
    if (rest.length > 0) return { kind: 'invalid', problem: say`${code('scan')} takes no other arguments.` };
    return { kind: 'scan', namespace, cluster: chosenCluster };
  }
  const word = typeOfKind(DEFAULT_WORKLOAD_KIND);
  if (first === undefined) return { kind: 'invalid', problem: say`which ${word}?` };
  if (rest.length > 0) return { kind: 'invalid', problem: say`one ${word} at a time.` };
  const target = splitTypeName(first);
  if ('unknownType' in target) {
    return {
      kind: 'invalid',
      problem: say`only ${kindsPhrase('s', 'and')} are supported, not ${code(target.unknownType.toLowerCase().slice(0, 40))}.`,
    };
  }
  const { kind: workload, name } = target;
  if (!resourceNameSchema.safeParse(name).success) {
    return {
      kind: 'invalid',
      problem: say`${code(name.slice(0, 253))} is not a valid ${workload} name (DNS-1123: lowercase letters, digits, '-', '.').`,
    };
  }
  return { kind: 'diagnose', workload, namespace: namespace ?? 'default', name, cluster: chosenCluster };
}
