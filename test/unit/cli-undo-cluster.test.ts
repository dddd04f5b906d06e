/**
 * `rollout-doctor undo ID` refuses an undo made for another cluster before any request
 * (exit 2), and goes to the cluster it was made for otherwise: the refusal pinned
 * without the 12 s live test (issue 43, item 3).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { saveUndo } from '../../src/cli/undo-store.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { fakeIo } from '../support/cli-io.js';

const UNDO_ID = 'undo-set-rolling-update-0123456789abcdef';

let server: http.Server;
let url = '';
let requests = 0;
let dir = '';

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    requests += 1;
    res.writeHead(404, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'undo-cluster-'));
  writeFileSync(
    join(dir, 'kubeconfig'),
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{ name: local, cluster: { server: "${url}" } }]`,
      'users: [{ name: tester, user: { token: "t" } }]',
      'contexts: [{ name: local, context: { cluster: local, user: tester, namespace: vision } }]',
      'current-context: local',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const undo = {
  id: UNDO_ID,
  kind: 'set-rolling-update',
  target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
  summary: 'Undo: maxSurge 0, maxUnavailable 1',
  impact: 'restores the fields the remediation changed; starts no rollout (the pod template is unchanged)',
  warnings: [],
  patch: { type: 'strategic-merge', body: { spec: { strategy: { rollingUpdate: { maxSurge: '25%' } } } } },
  preconditions: { uid: 'u-1', generation: 3, fields: [] },
  inverse: null,
  addresses: 'RolloutSurgeDeadlock',
} as unknown as RemediationPlan;

async function undoAgainst(madeFor: string) {
  const env = { ROLLOUT_DOCTOR_STATE_DIR: join(dir, `state-${requests}-${madeFor.length}`) };
  const saved = await saveUndo(undo, { server: madeFor, context: 'prod' }, env);
  if (!saved.ok) throw new Error(saved.reason);
  const io = fakeIo();
  const before = requests;
  const code = await runCli(['undo', UNDO_ID, '--yes', '--kubeconfig', join(dir, 'kubeconfig')], {
    ...io.io,
    env,
  });
  return { code, stderr: io.stderr(), stdout: io.stdout(), requests: requests - before };
}

describe('undo on another cluster', () => {
  it('refuses an undo made for another cluster with exit 2, naming both, before any request', async () => {
    const got = await undoAgainst('https://10.0.0.1:6443');
    expect(got.code).toBe(2);
    expect(got.stderr).toContain(
      `this undo was made for the cluster at https://10.0.0.1:6443 (context prod); the kubeconfig now points at ${url}`,
    );
    expect(got.requests).toBe(0);
  });

  it('goes on with the undo made for this cluster (the same check lets it through)', async () => {
    const got = await undoAgainst(url);
    expect(got.stderr).not.toContain('this undo was made for the cluster');
    expect(got.code).not.toBe(2);
    // Past the check, apply's flow shows the write it is about to make.
    expect(got.stdout).toContain(`Remediation set-rolling-update (${UNDO_ID})`);
  });
});
