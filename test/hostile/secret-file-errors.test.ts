/**
 * Malformed files that hold secrets (a kubeconfig's token and password, a dump with a
 * Secret, a policy file): the parse error names the file and a line and column, and
 * neither the error nor anything the CLI prints contains the file's content. YAML
 * parsers quote the source around the error (a code frame), which used to carry it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { createKubeClient } from '../../src/kube/client.js';
import { loadPolicyFile } from '../../src/policy/approval-policy.js';
import { fakeIo } from '../support/cli-io.js';

const TOKEN = 'sekret-token-4f9a';
const PASSWORD = 'hunter2-password-77';
const dir = mkdtempSync(join(tmpdir(), 'secret-files-'));

/** Valid up to the users block, then a bad indentation right beside the secrets. */
const BROKEN_KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
  - name: c
    cluster: { server: https://127.0.0.1:6443 }
users:
  - name: u
    user:
      token: ${TOKEN}
      password: ${PASSWORD}
     username: [admin
contexts:
  - name: x
    context: { cluster: c, user: u }
current-context: x
`;

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    // The whole chain: message, stack and any cause a logger would print.
    const e = error as Error & { cause?: unknown };
    return `${e.message}\n${e.stack ?? ''}\n${String(e.cause ?? '')}\n${(e.cause as Error | undefined)?.stack ?? ''}`;
  }
  throw new Error('expected a throw');
};

const leaks = (text: string): string[] => [TOKEN, PASSWORD].filter((s) => text.includes(s));

describe('parse errors of files holding secrets', () => {
  it('a malformed kubeconfig: file, line and column, no token or password', () => {
    const path = join(dir, 'kubeconfig');
    writeFileSync(path, BROKEN_KUBECONFIG);
    const text = errorOf(() => createKubeClient({ kubeconfig: path }));
    expect(text).toContain(path);
    expect(text).toMatch(/line \d+, column \d+/);
    expect(leaks(text)).toEqual([]);
  });

  it('the CLI with that kubeconfig prints neither', async () => {
    const path = join(dir, 'kubeconfig-cli');
    writeFileSync(path, BROKEN_KUBECONFIG);
    const run = fakeIo();
    const status = await runCli(['diagnose', 'deployment/web', '-n', 'shop', '--kubeconfig', path], run.io);
    expect(status).not.toBe(0);
    expect(run.stderr()).toContain(path);
    expect(leaks(run.stdout() + run.stderr())).toEqual([]);
  });

  it('a malformed --from-file dump carrying a Secret: position only', async () => {
    const dump = `apiVersion: v1
kind: Secret
metadata: { name: db }
stringData:
  token: ${TOKEN}
  password: "${PASSWORD}
 broken: [
`;
    expect(leaks(errorOf(() => loadObjects(dump)))).toEqual([]);
    // yaml's message for an unresolved alias ends with the alias: a first line can quote too.
    const alias = errorOf(() => loadObjects(`kind: Secret\nstringData:\n  token: *${TOKEN}\n`));
    expect(alias).toMatch(/not valid YAML/);
    expect(leaks(alias)).toEqual([]);
    const path = join(dir, 'dump.yaml');
    writeFileSync(path, dump);
    const run = fakeIo();
    await runCli(['diagnose', 'deployment/web', '-n', 'shop', '--from-file', path], run.io);
    expect(run.stderr()).toMatch(/line \d+, column \d+/);
    expect(leaks(run.stdout() + run.stderr())).toEqual([]);
  });

  it('a malformed policy file: position only', () => {
    const path = join(dir, 'policy.yaml');
    writeFileSync(path, `rules:\n  - namespace: shop\n    note: ${TOKEN}\n   approvers: [${PASSWORD}\n`);
    const text = errorOf(() => loadPolicyFile(path));
    expect(text).toMatch(/line \d+, column \d+/);
    expect(leaks(text)).toEqual([]);
  });
});
