import { describe, expect, it } from 'vitest';
import { buttonListener, buttonRoutes } from '../../src/chat/slack/listeners/actions/index.js';
import type { ChatServices } from '../../src/chat/services.js';

describe('Slack button routing (one Bolt listener for every button)', () => {
  const routes = buttonRoutes({} as ChatServices);
  const [approve, undo, rerun, status, dismiss] = routes.map(([, listener]) => listener);

  it('sends each action id the app posts to its listener, index suffixes included', () => {
    expect(buttonListener(routes, 'approve_plan')).toBe(approve);
    expect(buttonListener(routes, 'approve_plan.3')).toBe(approve);
    // Undo plans are approval-gated as Approve is: the same listener.
    expect(undo).toBe(approve);
    expect(buttonListener(routes, 'undo_plan.0')).toBe(approve);
    expect(buttonListener(routes, 'rerun_diagnosis')).toBe(rerun);
    expect(buttonListener(routes, 'plan_status.12')).toBe(status);
    expect(buttonListener(routes, 'dismiss_result')).toBe(dismiss);
    expect(new Set([approve, rerun, status, dismiss]).size).toBe(4);
  });

  it("choosing how long an exclusion lasts only acks: the choice travels with the Apply's press", async () => {
    const listener = buttonListener(routes, 'exclusion_lasts.0');
    expect(listener).toBeDefined();
    expect(new Set([approve, rerun, status, dismiss]).has(listener)).toBe(false);
    let acked = 0;
    await listener?.({ ack: async () => void (acked += 1) } as never);
    expect(acked).toBe(1);
  });

  it('routes nothing for an id the app never posted', () => {
    for (const id of ['approve_planx', 'approve_plan.', 'xapprove_plan', 'rerun_diagnosis.1', 'dismiss', ''])
      expect(buttonListener(routes, id), id).toBeUndefined();
  });
});
