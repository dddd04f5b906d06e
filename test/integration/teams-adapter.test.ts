/**
 * The Teams adapter end to end against the Teams stand-in (its token endpoint, Bot
 * Connector and signed activities), with the chat port's use-cases played by a small
 * fake that records what reached it: a command from an @mention, an announcement and
 * result card in the thread, per-user refresh (Approve enabled only for approvers), the
 * confirm step, a press that marks the card for everyone, and presses the card never
 * offered or that do not parse, which never reach the use-cases.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatUseCases, CommandRequest, PressRequest, StartedRun } from '../../src/chat/adapter.js';
import type { ChatMessage } from '../../src/chat/model.js';
import { plain, say, strong } from '../../src/message/rich.js';
import { type HttpServerHandle } from '../../src/app/http-server.js';
import { memoryCardStore } from '../../src/chat/teams/adapter.js';
import { discardLogger } from '../support/http-test-server.js';
import { findChromium } from '../../scripts/preview/browser-flow.js';
import { chromium } from 'playwright-core';
import { startBareTeamsBot } from '../support/teams-bot.js';
import { startTeamsStandin, type Person, type TeamsStandin } from '../support/teams-standin.js';

const CHANNEL = '19:ops@thread.tacv2';
const approver: Person = { id: '29:lead', name: 'Lead', aadObjectId: randomUUID() };
const viewer: Person = { id: '29:dev', name: 'Dev', aadObjectId: randomUUID() };

let teams: TeamsStandin;
let server: HttpServerHandle;
let botUrl: string;
const commands: CommandRequest[] = [];
const presses: PressRequest[] = [];

const result: ChatMessage = {
  summary: say`web is stuck: surge deadlock`,
  parts: [
    { kind: 'heading', text: 'deployment/web in shop' },
    { kind: 'paragraph', text: say`${strong('RolloutSurgeDeadlock')}: the quota is full`, role: 'verdict' },
    {
      kind: 'actions',
      buttons: [
        {
          label: 'Apply: scale the old ReplicaSet',
          style: 'primary',
          action: { kind: 'approve', planId: 'plan-1', shown: 'a'.repeat(64), requester: viewer.aadObjectId },
          confirm: { title: 'Apply this fix?', text: 'Scales web-old to 2', yes: 'Apply', no: 'Cancel' },
        },
        {
          label: 'Re-run',
          action: {
            kind: 'rerun',
            cluster: 'default',
            target: { namespace: 'shop', name: 'web', kind: 'Deployment' },
          },
        },
      ],
    },
  ],
};

const useCases: ChatUseCases = {
  async command(request) {
    commands.push(request);
    const run: StartedRun = {
      cluster: 'default',
      jobId: 'job-1',
      what: 'diagnose',
      addedAt: Date.now(),
      announcement: { summary: plain('Diagnosing'), parts: [] },
      owner: { requestedBy: request.person.id, cluster: 'default', namespace: 'shop' },
      cannotPost: { summary: plain('cannot post'), parts: [] },
    };
    return { kind: 'started', run };
  },
  async press(request) {
    presses.push(request);
    if (request.person.id !== approver.aadObjectId.toLowerCase())
      return { tell: { summary: plain('You are not an approver here'), parts: [] }, tellFirst: true };
    return {
      mark: {
        planId: 'plan-1',
        label: 'Approved by Lead: applying',
        line: say`Applying the fix`,
        withdrawOthers: true,
        summary: plain('web: applying the fix'),
      },
    };
  },
  async announce(chat, where) {
    // The real use-case posts the announcement, then the result replaces it.
    const ref = await chat.post(where, { summary: plain('Diagnosing web'), parts: [] });
    await chat.update(ref, result);
    return ref;
  },
};

beforeAll(async () => {
  teams = await startTeamsStandin({ appPassword: 'pw' });
  const logger = discardLogger('teams-adapter');
  const directory = new Map<string, string>();
  ({ server, botUrl } = await startBareTeamsBot({
    teams,
    appPassword: 'pw',
    store: memoryCardStore(),
    useCases,
    logger,
    refreshUserIds: () => [...directory.values()],
    mayApprove: async (person) => person.id === approver.aadObjectId.toLowerCase(),
    seen: (account) => {
      if (account.aadObjectId) directory.set(account.aadObjectId, account.id);
    },
  }));
});

afterAll(async () => {
  await server?.close();
  await teams?.close();
});

beforeEach(() => {
  commands.length = 0;
  presses.length = 0;
});

/** Asks for a diagnosis in a new channel post and returns the result card's activity. */
async function diagnosis() {
  const post = teams.message({
    text: 'diagnose deployment/web -n shop',
    from: viewer,
    conversationId: `${CHANNEL};messageid=${Date.now()}${Math.random().toString().slice(2, 6)}`,
  });
  expect((await teams.send(botUrl, post)).status).toBe(200);
  const conversationId = (post.conversation as { id: string }).id;
  return teams.waitFor((s) =>
    s
      .posted(conversationId)
      .find((a) => a.updates > 0 && JSON.stringify(a.activity).includes('RolloutSurgeDeadlock')),
  );
}

type Json = Record<string, unknown>;
const executes = (card: unknown): Json[] => {
  const out: Json[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if ((v as Json).type === 'Action.Execute') out.push(v as Json);
      Object.values(v as Json).forEach(walk);
    }
  };
  walk((card as Json).body);
  return out;
};
const cardOf = (activity: Json): Json => ((activity.attachments as Json[])[0] as Json).content as Json;

describe('Teams adapter', () => {
  it('turns an @mention into the port command and posts the result card in the thread', async () => {
    const card = await diagnosis();
    expect(commands).toEqual([
      {
        person: { platform: 'teams', id: viewer.aadObjectId.toLowerCase(), name: 'Dev' },
        conversation: expect.objectContaining({ platform: 'teams', id: CHANNEL }),
        text: 'diagnose deployment/web -n shop',
      },
    ]);
    expect(card.conversationId).toMatch(new RegExp(`^${CHANNEL};messageid=`));
    expect(cardOf(card.activity)).toMatchObject({ type: 'AdaptiveCard', version: '1.5' });
    expect((cardOf(card.activity).refresh as Json).userIds).toContain(viewer.id);
  });

  it('refreshes per user: Approve enabled for an approver, disabled for anyone else', async () => {
    const card = await diagnosis();
    const refresh = (who: Person) =>
      teams.send(
        botUrl,
        teams.cardAction({
          verb: 'refresh',
          data: {},
          from: who,
          conversationId: card.conversationId,
          replyToId: card.id,
          trigger: 'automatic',
        }),
      );
    const approve = (body: unknown) =>
      executes((body as Json).value).find(
        (a) => (a.data as Json).action && ((a.data as Json).action as Json).kind === 'approve',
      );
    expect(approve((await refresh(approver)).body)).not.toHaveProperty('isEnabled');
    expect(approve((await refresh(viewer)).body)).toMatchObject({ isEnabled: false });
    expect(presses).toHaveLength(0);
  });

  it('asks first (confirm), then a press by an approver marks the card for everyone', async () => {
    const card = await diagnosis();
    const action = executes(cardOf(card.activity)).find((a) => a.verb === 'confirm');
    expect(action).toBeDefined();
    const asked = await teams.send(
      botUrl,
      teams.cardAction({
        verb: 'confirm',
        data: action?.data as Json,
        from: approver,
        conversationId: card.conversationId,
        replyToId: card.id,
      }),
    );
    expect(JSON.stringify(asked.body)).toContain('Apply this fix?');
    expect(presses).toHaveLength(0);
    const yes = executes((asked.body as Json).value).find((a) => a.verb === 'press');
    const pressed = await teams.send(
      botUrl,
      teams.cardAction({
        verb: 'press',
        data: yes?.data as Json,
        from: approver,
        conversationId: card.conversationId,
        replyToId: card.id,
      }),
    );
    expect(pressed.status).toBe(200);
    expect(presses).toHaveLength(1);
    expect(presses[0]).toMatchObject({
      action: { kind: 'approve', planId: 'plan-1' },
      message: { id: card.id },
    });
    expect(JSON.stringify(pressed.body)).toContain('Applying the fix');
    const updated = await teams.waitFor((s) => {
      const a = s.activities.get(card.id);
      return a && JSON.stringify(a.activity).includes('Approved by Lead') ? a : undefined;
    });
    // The Apply button is gone for everyone; Re-run stays.
    expect(executes(cardOf(updated.activity)).map((a) => ((a.data as Json).action as Json).kind)).toEqual([
      'rerun',
    ]);
  });

  it('a non-approver’s press reaches the use-case, which refuses it, and the card does not change', async () => {
    const card = await diagnosis();
    const before = teams.activities.get(card.id)?.updates;
    const action = executes(cardOf(card.activity)).find((a) => a.verb === 'confirm');
    const pressed = await teams.send(
      botUrl,
      teams.cardAction({
        verb: 'press',
        data: action?.data as Json,
        from: viewer,
        conversationId: card.conversationId,
        replyToId: card.id,
      }),
    );
    expect(JSON.stringify(pressed.body)).toContain('You are not an approver here');
    expect(teams.activities.get(card.id)?.updates).toBe(before);
  });

  it('answers a replayed press (the same invoke again, token still valid) without a second use-case call', async () => {
    const card = await diagnosis();
    const action = executes(cardOf(card.activity)).find((a) => a.verb === 'confirm');
    const invoke = teams.cardAction({
      verb: 'press',
      data: action?.data as Json,
      from: viewer,
      conversationId: card.conversationId,
      replyToId: card.id,
    });
    const token = await teams.signToken();
    expect((await teams.send(botUrl, invoke, { token })).status).toBe(200);
    const again = await teams.send(botUrl, invoke, { token });
    expect(again.body).toMatchObject({ value: 'This press was already handled.' });
    expect(presses).toHaveLength(1);
  });

  it('refuses a forged Action.Execute (an action the card never offered, or malformed) before the use-cases', async () => {
    const card = await diagnosis();
    const forged = [
      { action: { kind: 'approve', planId: 'plan-other', shown: null, requester: null } },
      { action: { kind: 'approve', planId: 'plan-1', shown: 'b'.repeat(64), requester: null } },
      { action: { kind: 'approve', planId: 'plan-1' } },
      { action: { kind: 'rm -rf' } },
      {},
    ];
    for (const data of forged) {
      const answer = await teams.send(
        botUrl,
        teams.cardAction({
          verb: 'press',
          data,
          from: approver,
          conversationId: card.conversationId,
          replyToId: card.id,
        }),
      );
      expect(answer.body).toMatchObject({ statusCode: 400 });
    }
    const unknownCard = await teams.send(
      botUrl,
      teams.cardAction({
        verb: 'press',
        data: {},
        from: approver,
        conversationId: card.conversationId,
        replyToId: 'nope',
      }),
    );
    expect(unknownCard.body).toMatchObject({
      statusCode: 200,
      type: 'application/vnd.microsoft.activity.message',
    });
    expect(presses).toHaveLength(0);
  });
});

const chromiumPath = findChromium();

describe.runIf(chromiumPath !== undefined)(
  'Teams cards in chromium, rendered by Microsoft’s adaptivecards',
  () => {
    it('shows Apply disabled to others and enabled to the approver, whose click and confirm reach the bot as an Action.Execute', async () => {
      await diagnosis();
      const people = { [approver.id]: approver, [viewer.id]: viewer };
      const url = teams.serveClient({ botUrl, people });
      const browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        // Someone who may not approve sees the same card with Apply disabled.
        const other = await browser.newPage();
        await other.goto(`${url}?as=${encodeURIComponent(viewer.id)}`);
        await other.locator('body[data-state="ready"]').waitFor({ timeout: 10_000 });
        const theirs = other.locator('section.post').filter({ hasText: 'RolloutSurgeDeadlock' }).first();
        const disabled = theirs.getByRole('button', { name: 'Apply: scale the old ReplicaSet' });
        await expect.poll(() => disabled.isDisabled(), { timeout: 5_000 }).toBe(true);
        const page = await browser.newPage({ viewport: { width: 640, height: 900 } });
        await page.goto(`${url}?as=${encodeURIComponent(approver.id)}`);
        await page.locator('body[data-state="ready"]').waitFor({ timeout: 10_000 });
        const card = page.locator('section.post').filter({ hasText: 'RolloutSurgeDeadlock' }).last();
        const apply = card.getByRole('button', { name: 'Apply: scale the old ReplicaSet' });
        await expect.poll(() => apply.isEnabled(), { timeout: 5_000 }).toBe(true);
        if (process.env.TEAMS_SCREENSHOT) await card.screenshot({ path: process.env.TEAMS_SCREENSHOT });
        await apply.click();
        const yes = card.getByRole('button', { name: 'Apply', exact: true });
        await yes.waitFor({ timeout: 5_000 });
        expect(presses).toHaveLength(0);
        await yes.click();
        await card.getByText('Applying the fix').waitFor({ timeout: 5_000 });
        expect(presses).toHaveLength(1);
        expect(presses[0]).toMatchObject({
          person: { id: approver.aadObjectId.toLowerCase() },
          action: { kind: 'approve', planId: 'plan-1' },
        });
      } finally {
        await browser.close();
      }
    });
  },
);
