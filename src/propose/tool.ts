/**
 * The renderers a repository needs, run as programs (never a shell) with a timeout, a
 * bounded output and no kubeconfig: `kubectl kustomize` and `helm template` render
 * offline. Which binary: $ROLLOUT_DOCTOR_KUBECTL / $ROLLOUT_DOCTOR_HELM, else the one on PATH.
 */
import { spawn } from 'node:child_process';
import { RefusedInput } from './checkout.js';

const MAX_RENDER_BYTES = 16 * 1024 * 1024;

export interface Tools {
  kubectl: string;
  helm: string;
}

export function toolsFrom(env: Readonly<Record<string, string | undefined>>): Tools {
  return { kubectl: env['ROLLOUT_DOCTOR_KUBECTL'] || 'kubectl', helm: env['ROLLOUT_DOCTOR_HELM'] || 'helm' };
}

/** Runs `program args` in `cwd` with HOME at `home`; stdout, or a RefusedInput with its stderr's last lines. */
export function runTool(
  program: string,
  args: readonly string[],
  cwd: string,
  home: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args], {
      cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: home,
        KUBECONFIG: '/dev/null',
        HELM_CACHE_HOME: `${home}/.helm/cache`,
        HELM_CONFIG_HOME: `${home}/.helm/config`,
        HELM_DATA_HOME: `${home}/.helm/data`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RENDER_BYTES) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new RefusedInput(`cannot run ${program}: ${error.message}`)));
    child.on('close', (code) => {
      if (size > MAX_RENDER_BYTES)
        return reject(
          new RefusedInput(`${program} ${args[0] ?? ''} wrote more than ${MAX_RENDER_BYTES} bytes`),
        );
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const why = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-2).join(' | ');
      reject(new RefusedInput(`${program} ${args[0] ?? ''} failed: ${why}`));
    });
  });
}
