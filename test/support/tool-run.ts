/**
 * Runs a real kubectl or helm binary against a simulator's kubeconfig, asynchronously (the
 * simulator answers from the test's own process, so a synchronous spawn would deadlock),
 * with helm's cache, config and data kept in the test's folder.
 */
import { spawn } from 'node:child_process';

export interface ToolRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runTool(
  binary: string,
  args: readonly string[],
  options: { kubeconfig: string; home: string; input?: string },
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      env: {
        ...process.env,
        KUBECONFIG: options.kubeconfig,
        HELM_CACHE_HOME: options.home,
        HELM_CONFIG_HOME: options.home,
        HELM_DATA_HOME: options.home,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
