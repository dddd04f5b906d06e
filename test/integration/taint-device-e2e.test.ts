/**
 * taint-device through the approval flow, end to end: a GPU the driver reports
 * Unhealthy behind a crash loop, `/rollout-doctor`, the taint-device button (its
 * confirm dialog says the rule is cluster-wide), an approver's click, the one
 * DeviceTaintRule and the holder pod's deletion on the simulator, the replacement on
 * the node's other GPU; then the Undo, approval-gated, deleting only the rule.
 */
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import { afterAll, describe, expect, it } from 'vitest';
import { isCrashLooping } from '../../src/diagnosis/crash/container-failures.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';
import type { DeviceTaintRuleObject } from '../../src/remediation/device-taint.js';
import { DETECTOR, deviceHealthScenario } from '../support/dra-health-scenario.js';
import { isReady, livePods, startE2e, writesSince, type E2eHarness } from '../support/e2e-harness.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const harnesses: E2eHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
});

const deviceOf = (h: E2eHarness, pod: Pod): string => {
  const name = pod.status?.resourceClaimStatuses?.[0]?.resourceClaimName ?? '';
  const r = (h.sim.get('ResourceClaim', DETECTOR.namespace, name) as ResourceClaim | undefined)?.status
    ?.allocation?.devices?.results?.[0];
  return r ? `${r.driver}/${r.pool}/${r.device}` : '';
};

describe('taint-device approved in Slack', () => {
  it('taints the one device, replaces its pod, and the Undo deletes only the rule', async () => {
    const h = await startE2e({ scenario: deviceHealthScenario() });
    harnesses.push(h);
    const crashing = (): Pod | undefined =>
      livePods(h, DETECTOR.namespace).find((p) =>
        (p.status?.containerStatuses ?? []).some((s) => isCrashLooping(s, Date.now())),
      );
    await h.sim.waitFor(() => crashing() !== undefined, SIGNAL_WAIT_MS);
    const holder = crashing() as Pod;
    expect(deviceOf(h, holder)).toBe('gpu.nvidia.com/gpu-node-1/gpu-0');

    expect((await h.command(`${DETECTOR.name} -n ${DETECTOR.namespace}`)).status).toBe(200);
    const result = await h.waitForResult(DETECTOR.namespace, DETECTOR.name);
    const buttons = h.buttons(result);
    const plans = await Promise.all(
      buttons.map(
        async (b) => (await h.app.services.plans.get(parsePlanButtonValue(b.value ?? '').planId))?.plan,
      ),
    );
    const index = plans.findIndex((p) => p?.kind === 'taint-device');
    expect(index).toBeGreaterThanOrEqual(0);
    const button = buttons[index];
    expect(button?.confirm?.text?.text).toMatch(/cluster/i);
    const rule = plans[index]?.deviceTaint?.name ?? '';

    const mark = h.sim.requests.length;
    expect((await h.click(result, button?.action_id ?? '', h.approver)).status).toBe(200);
    const applied = await h.waitForReply(result.ts, 'applied', SIGNAL_WAIT_MS);
    expect(applied.text).toContain(`approved by <@${h.approver}>`);
    expect(writesSince(h, mark)).toEqual([
      { verb: 'create', resource: 'devicetaintrules' },
      { verb: 'delete', resource: 'pods', name: holder.metadata.name },
    ]);
    const created = h.sim.get('DeviceTaintRule', undefined, rule) as DeviceTaintRuleObject | undefined;
    expect(created?.spec.deviceSelector).toEqual({
      driver: 'gpu.nvidia.com',
      pool: 'gpu-node-1',
      device: 'gpu-0',
    });
    // The replacement gets the node's other GPU, not the tainted one, and runs.
    await h.sim.waitFor(() => {
      const pods = livePods(h, DETECTOR.namespace);
      return (
        pods.length === 3 && !pods.some((p) => p.metadata.uid === holder.metadata.uid) && pods.every(isReady)
      );
    }, SIGNAL_WAIT_MS);
    const replacement = livePods(h, DETECTOR.namespace).find((p) => p.spec.nodeName === 'gpu-node-1');
    expect(deviceOf(h, replacement as Pod)).toBe('gpu.nvidia.com/gpu-node-1/gpu-1');
    // No pod template changed: the thread speaks of the replacement, never of a rollout.
    expect(applied.text).toContain(`Watching the replacement of ${holder.metadata.name ?? ''} become Ready…`);
    await h.waitForReply(result.ts, 'replacement pods Ready', SIGNAL_WAIT_MS);
    expect(
      h
        .replies(result.ts)
        .map((m) => m.text)
        .join('\n'),
    ).not.toMatch(/Watching the rollout|rolled out/);

    const undoMark = h.sim.requests.length;
    expect(h.buttons(applied).map((b) => b.action_id)).toContain('undo_plan.0');
    expect((await h.click(applied, 'undo_plan.0', h.approver)).status).toBe(200);
    const undone = await h.waitForReply(result.ts, 'applied: Undo', SIGNAL_WAIT_MS);
    expect(undone.text).toContain('Nothing to watch: deleting the DeviceTaintRule starts no rollout');
    // The clicked reply says which fix was undone.
    expect(h.message(applied.channel, applied.ts)?.text).toBe('undo of taint-device approved');
    expect(h.sim.get('DeviceTaintRule', undefined, rule)).toBeUndefined();
    expect(writesSince(h, undoMark)).toEqual([{ verb: 'delete', resource: 'devicetaintrules', name: rule }]);
    // Nothing else moved: the three pods are the ones that ran before the Undo.
    expect(livePods(h, DETECTOR.namespace).every(isReady)).toBe(true);
  });
});
