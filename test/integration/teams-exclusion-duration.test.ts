/**
 * Issue 65.5 on Teams, end to end on seed incident B: the result card offers how long
 * the exclusion lasts as an Input.ChoiceSet above Approve; the approver picks 4h, the
 * confirm step names it and its "yes" carries it, and the worker writes a record that
 * ends 4 hours after it was set. The real app and workers, the Kubernetes simulator,
 * private Redis, and the Teams stand-in playing the Bot Connector.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deployment,
  reproduceNodeCrashLoop,
  rolledOut,
  startE2e,
  type E2eHarness,
} from '../support/e2e-harness.js';
import {
  startTeamsStandin,
  type Person,
  type PostedActivity,
  type TeamsStandin,
  teamsAppEnv,
} from '../support/teams-standin.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const CHANNEL = '19:incidents@thread.tacv2';
const THREAD = `${CHANNEL};messageid=1732536000002`;
const lead: Person = { id: '29:lead', name: 'Lead', aadObjectId: randomUUID() };

let teams: TeamsStandin;
let h: E2eHarness;
let botUrl: string;

beforeAll(async () => {
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  h = await startE2e({
    scenario: 'sim/scenarios/crashloop-node.yaml',
    approvers: ['U0LEAD', lead.aadObjectId],
    appEnv: { ...teamsAppEnv(teams) },
  });
  botUrl = `${h.app.handle.url}/api/messages`;
});

afterAll(async () => {
  await h?.close();
  await teams?.close();
});

const cardOf = (a: PostedActivity): string => JSON.stringify(a.activity.attachments ?? []);

/** Every object of a card (or an invoke's answer) of `type`. */
function elementsOf(value: unknown, type: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === type) found.push(o);
      Object.values(o).forEach(walk);
    }
  };
  walk(value);
  return found;
}

/** The data of the first Action.Execute whose action is an approve of an exclude-node plan. */
function approveData(value: unknown): { action: { planId: string } } {
  const data = elementsOf(value, 'Action.Execute')
    .map((a) => a.data as { action?: { kind?: string; planId?: string } })
    .find((d) => d.action?.kind === 'approve' && d.action.planId?.startsWith('exclude-node'));
  if (!data?.action?.planId) throw new Error('no Approve of exclude-node on the card');
  return data as { action: { planId: string } };
}

describe('Teams: how long the exclusion lasts, picked on the card', () => {
  it('the choice reaches the record written to the cluster, through the confirm step', async () => {
    await reproduceNodeCrashLoop(h);
    await teams.send(
      botUrl,
      teams.message({ text: 'diagnose deployment/checkout -n shop', from: lead, conversationId: THREAD }),
    );
    const result = await teams.waitFor(
      (s) =>
        s
          .posted(CHANNEL)
          .find(
            (a) =>
              a.updates > 0 && cardOf(a).includes('Recommended fix') && cardOf(a).includes('CrashLoopOnNode'),
          ),
      SIGNAL_WAIT_MS,
    );
    // The thread report follows: the card's record is kept by then.
    await teams.waitFor(
      (s) => s.posted(CHANNEL).find((a) => cardOf(a).includes('Full report')),
      SIGNAL_WAIT_MS,
    );
    const data = approveData(result.activity.attachments);
    const inputId = `lasts-${data.action.planId}`;
    const [choice] = elementsOf(result.activity.attachments, 'Input.ChoiceSet');
    expect(choice).toMatchObject({ id: inputId, value: 'planned' });
    expect(JSON.stringify(choice)).toContain('24h (default)');

    // The approver picks 4h and presses Approve: Teams merges the input into the data.
    const asked = await teams.send(
      botUrl,
      teams.cardAction({
        verb: 'confirm',
        data: { ...data, [inputId]: '4h' },
        from: lead,
        conversationId: result.conversationId,
        replyToId: result.id,
      }),
    );
    expect(asked.status).toBe(200);
    expect(JSON.stringify(asked.body)).toContain('Exclusion lasts: 4h.');
    const yes = approveData(asked.body);
    expect(yes.action).toMatchObject({ lasts: '4h' });
    const pressed = await teams.send(
      botUrl,
      teams.cardAction({
        verb: 'press',
        data: yes,
        from: lead,
        conversationId: result.conversationId,
        replyToId: result.id,
      }),
    );
    expect(pressed.status).toBe(200);
    await teams.waitFor(
      (s) => s.posted(CHANNEL).find((a) => cardOf(a).includes('the exclusion ends after 4h')),
      SIGNAL_WAIT_MS,
    );
    await teams.waitFor(() => rolledOut(deployment(h, 'shop', 'checkout')), SIGNAL_WAIT_MS);
    const record = deployment(h, 'shop', 'checkout').metadata.annotations ?? {};
    const setAt = Date.parse(record['rollout-doctor.io/exclusion.set-at'] ?? '');
    const expiresAt = Date.parse(record['rollout-doctor.io/exclusion.expires-at'] ?? '');
    expect(expiresAt - setAt).toBe(4 * 3_600_000);
    expect(h.audit()).toContainEqual(
      expect.objectContaining({ action: 'approval', result: 'claimed', lasts: '4h' }),
    );
  });
});
