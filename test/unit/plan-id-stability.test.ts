/**
 * Plan ids are stable for the same cluster state (DESIGN.md §3): diagnosing the same
 * objects at another time gives the same ids, for every plan kind, so
 * `apply --remediation ID` finds a plan an earlier `diagnose` printed. The restart
 * time is not part of a plan: its patch carries the APPLY_TIME marker.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { Finding } from '../../src/diagnosis/finding.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { buildRolloutRestartPlans } from '../../src/remediation/builders/rollout-restart.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { APPLY_TIME, RESTARTED_AT_POINTER } from '../../src/remediation/restart-time.js';
import { getAt } from '../../src/remediation/json-pointer.js';
import { fakeIo } from '../support/cli-io.js';
import { crashScenario } from '../support/crash-fixtures.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const EARLY = '2026-11-22T03:00:00Z';
const LATE = '2026-11-23T17:45:31Z';

afterEach(() => {
  vi.useRealTimers();
});

/** The snapshot as a live read at `at` would give it: same objects, another capture time. */
function at(snapshot: DeploymentSnapshot, time: string): DeploymentSnapshot {
  return { ...structuredClone(snapshot), capturedAt: time };
}

function diagnoseAt(snapshot: DeploymentSnapshot, time: string): RemediationPlan[] {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(time));
  return diagnose(at(snapshot, time)).remediations;
}

const ids = (plans: RemediationPlan[]): string[] => plans.map((p) => p.id);

describe('plan ids for the same cluster state', () => {
  it('are equal at two clock times: set-rolling-update and set-recreate (surge deadlock)', () => {
    const snapshot = seedIncidentA();
    const first = diagnoseAt(snapshot, EARLY);
    const second = diagnoseAt(snapshot, LATE);
    expect(first.map((p) => p.kind)).toEqual(expect.arrayContaining(['set-rolling-update', 'set-recreate']));
    expect(ids(second)).toEqual(ids(first));
    // The restart time is chosen at apply time: the plans carry the marker, not a time.
    for (const plan of first.filter((p) => p.kind !== 'scale-old-replicaset'))
      expect(getAt(plan.patch?.body, RESTARTED_AT_POINTER)).toBe(APPLY_TIME);
  });

  it('are equal at two clock times: exclude-node and delete-pods (crash loop on one node)', () => {
    const { snapshot } = crashScenario();
    const first = diagnoseAt(snapshot, EARLY);
    const second = diagnoseAt(snapshot, LATE);
    expect(first.map((p) => p.kind)).toEqual(['exclude-node', 'delete-pods']);
    expect(ids(second)).toEqual(ids(first));
  });

  it('are equal at two clock times: rollout-restart', () => {
    const finding: Omit<Finding, 'remediations'> = {
      code: 'CrashLoop',
      severity: 'critical',
      summary: 's',
      evidence: [],
    };
    const snapshot = seedIncidentA();
    snapshot.deployment.spec.strategy = {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
    };
    const [first] = buildRolloutRestartPlans(new AnalysisContext(at(snapshot, EARLY)), finding);
    const [second] = buildRolloutRestartPlans(new AnalysisContext(at(snapshot, LATE)), finding);
    expect(first?.kind).toBe('rollout-restart');
    expect(second?.id).toBe(first?.id);
  });

  it('are equal when the CLI diagnoses the same dump at two clock times', async () => {
    const idsAt = async (time: string): Promise<string[]> => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(time));
      const run = fakeIo();
      await runCli(
        [
          'diagnose',
          'deployment/vision-object-tracker',
          '-n',
          'vision',
          '--from-file',
          FIXTURE,
          '-o',
          'json',
        ],
        run.io,
      );
      vi.useRealTimers();
      const json = JSON.parse(run.stdout()) as { remediations: { id: string }[] };
      return json.remediations.map((r) => r.id);
    };
    const first = await idsAt(EARLY);
    expect(first.length).toBeGreaterThan(0);
    expect(await idsAt(LATE)).toEqual(first);
  });
});
