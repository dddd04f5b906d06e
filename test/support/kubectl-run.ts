/** The real kubectl against a simulator's kubeconfig, as an on-call engineer runs it. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** `kubectl --kubeconfig K -n NS ARGS…`: its stdout and exit code (never throws for a non-zero exit). */
export async function kubectlIn(
  kubeconfig: string,
  namespace: string,
  args: string[],
): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await exec('kubectl', ['--kubeconfig', kubeconfig, '-n', namespace, ...args], {
      timeout: 30_000,
    });
    return { stdout, code: 0 };
  } catch (error) {
    const e = error as { stdout?: string; code?: number };
    return { stdout: e.stdout ?? '', code: typeof e.code === 'number' ? e.code : 1 };
  }
}
