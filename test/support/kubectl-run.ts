/** The real kubectl against a simulator's kubeconfig, as an on-call engineer runs it. */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from './cli-io.js';
import { PROCESS_TIMEOUT_MS } from './timeouts.js';

const exec = promisify(execFile);

/** `kubectl --kubeconfig K -n NS ARGS…`: its output and exit code (never throws for a non-zero exit). */
export async function kubectlIn(
  kubeconfig: string,
  namespace: string,
  args: string[],
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await exec('kubectl', ['--kubeconfig', kubeconfig, '-n', namespace, ...args], {
      timeout: PROCESS_TIMEOUT_MS,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
  }
}

/**
 * The cluster as `kubectl get RESOURCES -o yaml` saves it, diagnosed with
 * `rollout-doctor diagnose TARGET --from-file`: the exit code and the JSON report.
 */
export async function diagnoseKubectlDump(
  kubeconfig: string,
  namespace: string,
  resources: string,
  target: string,
): Promise<{ code: number; report: DumpReport }> {
  const dump = await kubectlIn(kubeconfig, namespace, ['get', resources, '-o', 'yaml']);
  if (dump.code !== 0) throw new Error(`kubectl get ${resources} exited ${dump.code}`);
  const file = join(dirname(kubeconfig), 'dump.yaml');
  writeFileSync(file, dump.stdout);
  const io = fakeIo();
  const code = await runCli(['diagnose', target, '-n', namespace, '--from-file', file, '-o', 'json'], io.io);
  return { code, report: JSON.parse(io.stdout()) as DumpReport };
}

export interface DumpReport {
  findings: { code: string }[];
  remediations: { kind: string; pods?: { name: string }[] }[];
}
