/**
 * check judges a workload with the ResourceQuotas and LimitRanges the same change applies
 * (check/created-objects.ts): kubectl applies every document, so a quota or limit range
 * in the change holds for the new pods. Each arm: the object in the change refuses or
 * holds the rollout; the same workload without it finishes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

/** Two nodes; deployment ml/web, 2 replicas without requests; the system PriorityClasses; no quota, no LimitRange read. */
const DUMP = join(import.meta.dirname, '../fixtures/dumps/check-created-objects.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-check-created-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The Deployment with a new image (surge 1, unavailable 0), `resources` on its container, after `before`. */
function change(name: string, before: string, resources = ''): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `${before}${before ? '---\n' : ''}apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ml}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: app
          image: reg/app:2
${resources}`,
  );
  return file;
}

async function check(
  file: string,
): Promise<{ status: number; result: { verdict: string; findings: { code: string; summary: string }[] } }> {
  const io = fakeIo();
  const status = await runCli(['check', '-f', file, '--from-file', DUMP, '-o', 'json'], io.io);
  const report = JSON.parse(io.stdout()) as {
    results: { verdict: string; findings: { code: string; summary: string }[] }[];
  };
  const result = report.results[0];
  if (!result) throw new Error(io.stdout());
  return { status, result };
}

const CPU_1 = '          resources: {requests: {cpu: "1"}, limits: {cpu: "1"}}\n';

describe('objects the same change applies', () => {
  it("a LimitRange whose max the new container exceeds: refused, never 'will finish'", async () => {
    const range =
      'apiVersion: v1\nkind: LimitRange\nmetadata: {name: caps, namespace: ml}\nspec:\n  limits:\n    - type: Container\n      max: {cpu: 500m}\n';
    const refused = await check(change('range', range, CPU_1));
    expect(refused.result.verdict).toBe('never-finishes');
    expect(refused.result.findings[0]?.code).toBe('AdmissionDenied');
    expect(refused.result.findings[0]?.summary).toContain('LimitRange caps');
    expect(refused.status).toBe(1);
    const alone = await check(change('range-alone', '', CPU_1));
    expect(alone.result.verdict).toBe('finishes');
    expect(alone.status).toBe(0);
  });

  it('a ResourceQuota of pods: its usage is the pods the namespace runs, so a surge past it never finishes', async () => {
    const quota = (pods: number): string =>
      `apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pod-cap, namespace: ml}\nspec:\n  hard: {pods: "${pods}"}\n`;
    const full = await check(change('quota-2', quota(2)));
    expect(full.result.verdict).toBe('never-finishes');
    expect(full.status).toBe(1);
    const room = await check(change('quota-3', quota(3)));
    expect(room.result.verdict).toBe('finishes');
    expect(room.status).toBe(0);
  });

  it('a ResourceQuota that requires requests.cpu, the LimitRanges not read: not known, not finishing', async () => {
    const quota =
      'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: compute, namespace: ml}\nspec:\n  hard: {requests.cpu: "20"}\n';
    const open = await check(change('compute', quota));
    expect(open.result.verdict).toBe('unknown');
    expect(open.result.findings[0]?.summary).toContain('ResourceQuota compute requires requests.cpu');
    expect(open.status).toBe(1);
  });

  it("a quota that names no namespace lands where kubectl applies it: -n ml here, the context's default elsewhere", async () => {
    const quota =
      'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pod-cap}\nspec:\n  hard: {pods: "2"}\n';
    const file = change('no-namespace', quota);
    const io = fakeIo();
    const status = await runCli(['check', '-f', file, '-n', 'ml', '--from-file', DUMP, '-o', 'json'], io.io);
    expect((JSON.parse(io.stdout()) as { results: { verdict: string }[] }).results[0]?.verdict).toBe(
      'never-finishes',
    );
    expect(status).toBe(1);
    expect((await check(file)).result.verdict).toBe('finishes');
  });

  it('a quota in another namespace holds nothing here', async () => {
    const elsewhere =
      'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pod-cap, namespace: other}\nspec:\n  hard: {pods: "1"}\n';
    const result = await check(change('elsewhere', elsewhere));
    expect(result.result.verdict).toBe('finishes');
  });
});
