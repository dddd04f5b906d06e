/**
 * The Teams path end to end on seed incident A: the real app and workers, the
 * Kubernetes simulator, private Redis, and the Teams stand-in playing the Bot Connector
 * (tokens signed by its local key, validated unmodified). `@rollout-doctor diagnose …`
 * in a channel thread ends with the result card replacing the announcement; an
 * approver's Approve (an `Action.Execute` invoke) applies the fix in the simulator and
 * the card says rolled out, the outcomes posted in the card's thread; a non-approver's
 * forged invoke is refused and a replayed one applies nothing twice.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deployment,
  reproduceSurgeDeadlock,
  rolledOut,
  startE2e,
  writesSince,
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
const THREAD = `${CHANNEL};messageid=1732536000001`;
const NAME = 'vision-object-tracker';
const lead: Person = { id: '29:lead', name: 'Lead', aadObjectId: randomUUID() };
const stranger: Person = { id: '29:stranger', name: 'Stranger', aadObjectId: randomUUID() };

let teams: TeamsStandin;
let h: E2eHarness;
let botUrl: string;

beforeAll(async () => {
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  h = await startE2e({
    scenario: 'sim/scenarios/gpu-deadlock.yaml',
    approvers: ['U0LEAD', lead.aadObjectId],
    appEnv: {
      ...teamsAppEnv(teams),
    },
  });
  botUrl = `${h.app.handle.url}/api/messages`;
});

afterAll(async () => {
  await h?.close();
  await teams?.close();
});

const cardOf = (a: PostedActivity): string => JSON.stringify(a.activity.attachments ?? []);

/** The Action.Execute data of the card's button whose action is of `kind`. */
function actionData(a: PostedActivity, kind: string): Record<string, unknown> {
  const found: Record<string, unknown>[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const data = o.data as { action?: { kind?: string } } | undefined;
      if (o.type === 'Action.Execute' && data?.action?.kind === kind)
        found.push(o.data as Record<string, unknown>);
      Object.values(o).forEach(walk);
    }
  };
  walk(a.activity.attachments);
  const [first] = found;
  if (!first) throw new Error(`no ${kind} action on the card`);
  return first;
}

describe('Teams, end to end', () => {
  let result: PostedActivity;

  it('a diagnosis through /api/messages ends with the result card replacing the announcement', async () => {
    await reproduceSurgeDeadlock(h);
    const sent = await teams.send(
      botUrl,
      teams.message({ text: `diagnose deployment/${NAME} -n vision`, from: lead, conversationId: THREAD }),
    );
    expect(sent.status).toBe(200);
    result = await teams.waitFor(
      (s) => s.posted(CHANNEL).find((a) => a.updates > 0 && cardOf(a).includes('Recommended fix')),
      SIGNAL_WAIT_MS,
    );
    // The announcement itself was replaced: the same activity, no second card for it.
    expect(result.conversationId).toBe(THREAD);
    expect(teams.posted(CHANNEL).filter((a) => cardOf(a).includes('asked for'))).toHaveLength(0);
    expect(cardOf(result)).toContain('RolloutSurgeDeadlock');
    expect(cardOf(result)).not.toContain('asked for');
    // The thread report follows in the card's thread.
    await teams.waitFor(
      (s) => s.posted(CHANNEL).find((a) => cardOf(a).includes('Full report')),
      SIGNAL_WAIT_MS,
    );
  });

  it("a non-approver's forged Approve is refused: nothing is queued or written", async () => {
    const before = h.sim.requests.length;
    const invoke = teams.cardAction({
      verb: 'press',
      data: actionData(result, 'approve'),
      from: stranger,
      conversationId: THREAD,
      replyToId: result.id,
    });
    const answer = await teams.send(botUrl, invoke);
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toContain('Not applied');
    // Who to ask, never an Entra object id (nobody reads a GUID as a person).
    expect(JSON.stringify(answer.body)).toContain('ask whoever runs rollout-doctor');
    const shown = [...JSON.stringify(answer.body).matchAll(/"text":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    expect(shown.join('\n')).not.toContain(lead.aadObjectId);
    expect(h.audit()).toContainEqual(expect.objectContaining({ action: 'refusal', reason: 'not-approver' }));
    expect(writesSince(h, before)).toHaveLength(0);
  });

  it("an approver's Approve applies the fix in the simulator and the card says rolled out; a replay applies nothing twice", async () => {
    const invoke = teams.cardAction({
      verb: 'press',
      data: actionData(result, 'approve'),
      from: lead,
      conversationId: THREAD,
      replyToId: result.id,
    });
    const answer = await teams.send(botUrl, invoke);
    expect(answer.status).toBe(200);
    // Replayed as captured (same activity id): refused (the invoke was seen, or the card no
    // longer offers Approve); later re-sent as a fresh invoke, the claim refuses it.
    expect(JSON.stringify((await teams.send(botUrl, invoke)).body)).toMatch(/already handled|does not offer/);
    await teams.waitFor((s) => {
      const card = s.activities.get(result.id);
      return card && cardOf(card).includes('rolled out') ? card : undefined;
    }, SIGNAL_WAIT_MS);
    await teams.waitFor(
      (s) => s.posted(CHANNEL).find((a) => cardOf(a).includes('"text":"rolled out"')),
      SIGNAL_WAIT_MS,
    );
    const again = await teams.send(botUrl, { ...invoke, id: randomUUID() });
    expect(again.status).toBe(200);
    expect(rolledOut(deployment(h, 'vision', NAME))).toBe(true);
    const approvals = h.audit().filter((e) => e.action === 'approval' && e.result === 'claimed');
    expect(approvals).toHaveLength(1);
    expect(h.audit().filter((e) => e.action === 'outcome' && e.outcome === 'applied')).toHaveLength(1);
  });

  it('Undo from the applied reply in the thread is approval-gated and ends with the card saying undone', async () => {
    const applied = await teams.waitFor(
      (s) => s.posted(CHANNEL).find((a) => a.id !== result.id && cardOf(a).includes('"undo"')),
      SIGNAL_WAIT_MS,
    );
    const undo = (from: Person) =>
      teams.cardAction({
        verb: 'press',
        data: actionData(applied, 'undo'),
        from,
        conversationId: THREAD,
        replyToId: applied.id,
      });
    const before = h.sim.requests.length;
    expect(JSON.stringify((await teams.send(botUrl, undo(stranger))).body)).toContain('Not applied');
    expect(writesSince(h, before)).toHaveLength(0);
    expect((await teams.send(botUrl, undo(lead))).status).toBe(200);
    await teams.waitFor((s) => {
      const card = s.activities.get(result.id);
      return card && cardOf(card).includes('undone') ? card : undefined;
    }, SIGNAL_WAIT_MS);
    expect(deployment(h, 'vision', NAME).spec.strategy?.rollingUpdate?.maxSurge).toBe('25%');
  });
});
