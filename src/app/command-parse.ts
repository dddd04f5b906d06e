import { asIs, inlineCode, joinMrkdwn, mrkdwn, trusted, type Mrkdwn } from '../chat/slack/blocks/mrkdwn.js';
import { clusterSchema, namespaceSchema, resourceNameSchema } from '../queue/schemas.js';
import {
  DEFAULT_WORKLOAD_KIND,
  kindsPhrase,
  splitTypeName,
  typeOfKind,
  type WorkloadKind,
} from '../diagnosis/workload-ref.js';

/** What `/rollout-doctor <text>` asks for, once validated. */
export type ParsedCommand =
  | { kind: 'help' }
  | { kind: 'diagnose'; workload: WorkloadKind; namespace: string; name: string; cluster: string }
  | { kind: 'scan'; namespace: string | undefined; cluster: string }
  | { kind: 'invalid'; problem: Mrkdwn };

export const USAGE = [
  '*Usage*',
  '`/rollout-doctor NAME [-n NAMESPACE] [--cluster CLUSTER]`: why is deployment NAME stuck or crashing?',
  '`/rollout-doctor deployment/NAME [-n NAMESPACE] [--cluster CLUSTER]`: the same',
  '`/rollout-doctor daemonset/NAME [-n NAMESPACE] [--cluster CLUSTER]`: the same for a DaemonSet (`ds/NAME`); `statefulset/NAME` (`sts/NAME`) and `rollout/NAME` (an Argo Rollout) alike',
  '`/rollout-doctor diagnose TYPE/NAME [-n NAMESPACE]`: the same, as the command line says it',
  '`/rollout-doctor scan [-n NAMESPACE] [--cluster CLUSTER]`: find Deployments, DaemonSets, StatefulSets and Argo Rollouts that are stuck or at risk',
  '`/rollout-doctor help`: this message',
  'NAMESPACE defaults to `default`; `scan` without `-n` scans every namespace.',
].join('\n');

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
      : { kind: 'invalid', problem: trusted('`help` takes no arguments.') };
  }
  let namespace: string | undefined;
  let cluster: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    const value = tokens[i + 1];
    const takeValue = (flag: string): string | { problem: Mrkdwn } =>
      value === undefined || value.startsWith('-') ? { problem: mrkdwn`${flag} needs a value.` } : value;
    if (token === '-n' || token === '--namespace') {
      if (namespace !== undefined)
        return { kind: 'invalid', problem: trusted('the namespace is given twice.') };
      const v = takeValue(token);
      if (typeof v !== 'string') return { kind: 'invalid', ...v };
      namespace = v;
      i += 1;
    } else if (token.startsWith('--namespace=') || token.startsWith('--cluster=')) {
      const [flag, v = ''] = token.split('=', 2);
      if (flag === '--namespace') namespace = v;
      else cluster = v;
    } else if (token === '--cluster') {
      if (cluster !== undefined) return { kind: 'invalid', problem: trusted('the cluster is given twice.') };
      const v = takeValue(token);
      if (typeof v !== 'string') return { kind: 'invalid', ...v };
      cluster = v;
      i += 1;
    } else if (token.startsWith('-')) {
      return { kind: 'invalid', problem: mrkdwn`unknown option ${asIs(inlineCode(token.slice(0, 40)))}.` };
    } else {
      positional.push(token);
    }
  }
  const chosenCluster = cluster ?? options.defaultCluster;
  if (!clusterSchema.safeParse(chosenCluster).success || !options.clusters.includes(chosenCluster)) {
    return {
      kind: 'invalid',
      problem: mrkdwn`unknown cluster ${asIs(inlineCode(chosenCluster.slice(0, 63)))}; known: ${asIs(joinMrkdwn(options.clusters.map(inlineCode), ', '))}.`,
    };
  }
  if (namespace !== undefined && !namespaceSchema.safeParse(namespace).success) {
    return {
      kind: 'invalid',
      problem: mrkdwn`${asIs(inlineCode(namespace.slice(0, 63)))} is not a valid namespace (DNS-1123 label: lowercase letters, digits, '-').`,
    };
  }
  // `diagnose deployment/NAME`, as the command line says it (a Deployment named
  // "diagnose" alone is still that Deployment).
  if (positional[0] === 'diagnose' && positional.length === 2) positional.shift();
  const [first, ...rest] = positional;
  if (first === 'scan') {
    if (rest.length > 0) return { kind: 'invalid', problem: trusted('`scan` takes no other arguments.') };
    return { kind: 'scan', namespace, cluster: chosenCluster };
  }
  const word = typeOfKind(DEFAULT_WORKLOAD_KIND);
  if (first === undefined) return { kind: 'invalid', problem: mrkdwn`which ${word}?` };
  if (rest.length > 0) return { kind: 'invalid', problem: mrkdwn`one ${word} at a time.` };
  const target = splitTypeName(first);
  if ('unknownType' in target) {
    return {
      kind: 'invalid',
      problem: mrkdwn`only ${kindsPhrase('s', 'and')} are supported, not ${asIs(inlineCode(target.unknownType.toLowerCase().slice(0, 40)))}.`,
    };
  }
  const { kind: workload, name } = target;
  if (!resourceNameSchema.safeParse(name).success) {
    return {
      kind: 'invalid',
      problem: mrkdwn`${asIs(inlineCode(name.slice(0, 253)))} is not a valid ${workload} name (DNS-1123: lowercase letters, digits, '-', '.').`,
    };
  }
  return { kind: 'diagnose', workload, namespace: namespace ?? 'default', name, cluster: chosenCluster };
}
