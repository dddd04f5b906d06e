/**
 * `rollout-doctor diagnose deployment/NAME -n NS [--context C] [--kubeconfig F]
 * [--from-file DUMP] [-o text|json]`: diagnoses one Deployment from a live cluster or
 * a saved dump. Exit: 0 no problem, 1 problems found, 2 bad arguments or input or
 * not found, 3 cluster unreachable or forbidden.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { assembleSnapshot } from '../../diagnosis/assemble.js';
import { DumpError, loadObjects } from '../../diagnosis/dump.js';
import { diagnose } from '../../diagnosis/run.js';
import type { WorkloadRef, WorkloadSnapshot } from '../../diagnosis/snapshot.js';
import { ClusterError, WorkloadNotFoundError } from '../../kube/errors.js';
import { hasProblems, renderJson } from '../../report/json.js';
import { renderText } from '../../report/text.js';
import { EXIT, readAll, UsageError, type CliIo } from '../io.js';

const HELP = `Usage: rollout-doctor diagnose deployment/NAME [-n NAMESPACE] [--context C] [--kubeconfig F]
                                [--from-file DUMP] [-o text|json]

Explains why a Deployment's rollout is stuck or its pods crash, and what would fix it.
  -n, --namespace   namespace of the Deployment (default "default")
  --from-file DUMP  read objects from a \`kubectl get ... -o yaml\` dump ("-" for stdin)
                    instead of the cluster, e.g.
                    kubectl get deploy,rs,pods,events,nodes,pvc -n NS -o yaml > dump.yaml
  --context, --kubeconfig  which cluster to read (live mode only)
  -o, --output      text (default) or json
Exit status: 0 no problem found, 1 problems found, 2 bad arguments or input, 3 cluster unreachable or forbidden.
`;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DEPLOYMENT_KINDS = new Set([
  'deployment',
  'deployments',
  'deploy',
  'deployment.apps',
  'deployments.apps',
]);

interface Options {
  ref: WorkloadRef;
  output: 'text' | 'json';
  fromFile?: string;
  context?: string;
  kubeconfig?: string;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  const options = parseOptions(argv);
  let snapshot: WorkloadSnapshot;
  try {
    snapshot = options.fromFile
      ? await fromFile(options.fromFile, options.ref, io)
      : await fromCluster(options, io);
  } catch (error) {
    if (error instanceof WorkloadNotFoundError) {
      io.stderr.write(`rollout-doctor diagnose: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof ClusterError) {
      io.stderr.write(`rollout-doctor diagnose: ${error.message}\n`);
      return EXIT.cluster;
    }
    throw error;
  }
  const diagnosis = diagnose(snapshot);
  const color = Boolean(io.stdout.isTTY) && !io.env['NO_COLOR'];
  io.stdout.write(options.output === 'json' ? renderJson(diagnosis) : renderText(diagnosis, { color }));
  return hasProblems(diagnosis) ? EXIT.problems : EXIT.ok;
}

/** Parses and validates the arguments; every mistake is a UsageError (exit 2). */
export function parseOptions(argv: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        namespace: { type: 'string', short: 'n' },
        context: { type: 'string' },
        kubeconfig: { type: 'string' },
        'from-file': { type: 'string' },
        output: { type: 'string', short: 'o' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? 'which Deployment? Usage: rollout-doctor diagnose deployment/NAME -n NAMESPACE'
        : `expected one Deployment, got ${positionals.length}: ${positionals.join(' ')}`,
    );
  }
  const name = parseTarget(positionals[0] ?? '');
  const namespace = values.namespace ?? 'default';
  if (!DNS_LABEL.test(namespace) || namespace.length > 63) {
    throw new UsageError(
      `"${namespace}" is not a valid namespace (lowercase letters, digits and '-', at most 63)`,
    );
  }
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json')
    throw new UsageError(`-o must be text or json, not "${output}"`);
  const fromFile = values['from-file'];
  if (fromFile !== undefined && (values.context !== undefined || values.kubeconfig !== undefined)) {
    throw new UsageError('--from-file reads a dump; --context and --kubeconfig only apply to a live cluster');
  }
  if (fromFile === '') throw new UsageError('--from-file needs a file name (or "-" for stdin)');
  return {
    ref: { kind: 'Deployment', namespace, name },
    output,
    ...(fromFile !== undefined ? { fromFile } : {}),
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
  };
}

/** NAME, deployment/NAME, deploy/NAME or deployments/NAME (also *.apps). */
function parseTarget(target: string): string {
  const slash = target.indexOf('/');
  const kind = slash < 0 ? undefined : target.slice(0, slash).toLowerCase();
  const name = slash < 0 ? target : target.slice(slash + 1);
  if (kind !== undefined && !DEPLOYMENT_KINDS.has(kind)) {
    throw new UsageError(`only Deployments can be diagnosed, not "${target.slice(0, slash)}"`);
  }
  if (!name || !DNS_SUBDOMAIN.test(name) || name.length > 253) {
    throw new UsageError(
      `"${name}" is not a valid Deployment name (lowercase letters, digits, '-' and '.', starting and ending alphanumeric)`,
    );
  }
  return name;
}

async function fromFile(file: string, ref: WorkloadRef, io: CliIo): Promise<WorkloadSnapshot> {
  let text: string;
  try {
    text = file === '-' ? await readAll(io.stdin) : await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(error)}`,
    );
  }
  try {
    return assembleSnapshot(ref, loadObjects(text));
  } catch (error) {
    if (error instanceof DumpError)
      throw new UsageError(`${file === '-' ? 'stdin' : file}: ${error.message}`);
    throw error;
  }
}

async function fromCluster(options: Options, io: CliIo): Promise<WorkloadSnapshot> {
  // Loaded on demand so that dump mode never pulls in the Kubernetes client.
  const { collectFromCluster } = await import('../../kube/source.js');
  const stderr = io.stderr as CliIo['stderr'] & { isTTY?: boolean };
  return collectFromCluster({
    ref: options.ref,
    ...(options.kubeconfig !== undefined ? { kubeconfig: options.kubeconfig } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
    onProgress: (step) => {
      if (stderr.isTTY) stderr.write(`… ${step}\n`);
    },
  });
}
