/**
 * The Block Kit preview in a real browser: Debian's chromium, driven by playwright-core,
 * on the page `npm run preview` serves, in front of the real app and worker processes,
 * Redis and the simulator with both seed incidents. A person types the command, reads
 * the result, approves the recommended fix through its confirm dialog and sees the
 * outcome in the thread; cluster text that looks like HTML stays text. In the page's
 * Teams tab (Microsoft's adaptivecards renderer), incident A again is asked, approved
 * through its confirm step by signed Action.Execute invokes, and its card says rolled out.
 *
 * Assertions are on what stays true while the message layout evolves: a primary
 * button, a confirm dialog before anything is sent, replies in the thread, an outcome
 * that says rolled out, no Apply button left clickable after the approval.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createCleanup } from '../../scripts/demo/cleanup.js';
import { CHANNELS } from '../../scripts/demo/context.js';
import type { DemoProcess } from '../../scripts/demo/processes.js';
import { DEMO_BOT_TOKEN } from '../../scripts/demo/stack.js';
import {
  approveInTeams,
  approveRecommended,
  channelMessages,
  findChromium,
  launchChromium,
  openPreview,
  openTeamsView,
  postInTeams,
  primaryButton,
  runCommand,
  teamsPrimaryButtons,
  threadReplies,
} from '../../scripts/preview/browser-flow.js';
import {
  breakTrackerAgain,
  INCIDENT_COMMANDS,
  NEXT_IMAGE,
  startPreviewSession,
  TEAMS_COMMAND,
  type PreviewSession,
} from '../../scripts/preview/session.js';
import { TEAMS_CHANNELS } from '../../scripts/demo/teams-story.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { TRACKER } from '../../scripts/demo-scenario.js';
import { rawRequest } from '../support/raw-http.js';
import { requireBinary } from '../support/tools.js';
import { STORY } from '../support/timeouts.js';

const hasChromium = requireBinary('chromium', 'Debian/Ubuntu: apt-get install chromium');

/** Appended to checkout's termination message on node-b: what a hostile image could print. */
const HOSTILE =
  '<img src=x onerror=document.body.dataset.pwned=1> <script>document.body.dataset.pwned=2</script> <javascript:document.body.dataset.pwned=3|click me>';

/** The seed scenarios with HOSTILE in the kube-sim crash rule's message (the container's termination message). */
function withHostileTermination(objects: object[]): object[] {
  return objects.map((o) => {
    const cm = o as { kind?: string; metadata?: { name?: string }; data?: Record<string, string> };
    if (cm.kind !== 'ConfigMap' || cm.metadata?.name !== 'kube-sim' || !cm.data?.['rules.yaml']) return o;
    const rules = cm.data['rules.yaml'].replace(
      /(message: "[^"]*)"/,
      (_all, start: string) => `${start} ${HOSTILE}"`,
    );
    if (!rules.includes(HOSTILE)) throw new Error('the crash rule has no message to extend');
    return { ...cm, data: { ...cm.data, 'rules.yaml': rules } };
  });
}

const STEP_MS = 60_000;

// Each test here plays a whole story: the story limit, not the config's default.
describe.runIf(hasChromium)('Block Kit preview in chromium', STORY, () => {
  const cleanup = createCleanup(() => undefined);
  const processes: DemoProcess[] = [];
  let session: PreviewSession;
  let browser: Browser;
  let page: Page;
  const clickRequests: string[] = [];
  const teamsRequests: string[] = [];
  const pageProblems: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    const started = Date.now();
    session = await startPreviewSession({
      cleanup,
      say: () => undefined,
      timeScale: 30,
      processes,
      editScenario: withHostileTermination,
    });
    browser = await launchChromium(findChromium() ?? 'chromium');
    cleanup.register('chromium', () => browser.close());
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('request', (r) => {
      if (r.url().endsWith('/api/click')) clickRequests.push(r.postData() ?? '');
      if (r.url().endsWith('/api/teams/execute')) teamsRequests.push(r.postData() ?? '');
    });
    page.on('pageerror', (e) => pageProblems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') pageProblems.push(`console: ${m.text()}`);
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await Promise.race([session.incidents, session.stack.app.exited, session.stack.worker.exited]);
    await openPreview(page, session.server.url, STEP_MS);
    console.log(`preview-browser: everything up and both incidents live in ${Date.now() - started} ms`);
  });

  afterAll(async () => {
    await cleanup.run();
  });

  it('incident A: the command, the verdict updated in place, confirm before sending, the fix rolled out in the thread', async () => {
    const message = await runCommand(page, {
      channel: CHANNELS.incidents,
      ...INCIDENT_COMMANDS.a,
      timeoutMs: STEP_MS,
    });
    // The app's first message ("asked for a diagnosis…") became the result: same ts, updated.
    expect(Number(await message.getAttribute('data-updates'))).toBeGreaterThan(0);
    const body = message.locator(':scope > .msg-body');
    const verdict = (await body.textContent()) ?? '';
    expect(verdict).toContain('vision-object-tracker');
    expect(verdict).toMatch(/RolloutSurgeDeadlock|deadlock|can never finish/i);
    expect(verdict).toContain('nvidia.com/gpu');
    // Rendered as Slack shows it: bold runs as elements, no mrkdwn markers left around them.
    expect(await body.locator('b').count()).toBeGreaterThan(0);
    expect(verdict).not.toMatch(/\*[A-Za-z][^*\n]*\*/);
    // Apply buttons, the recommended one primary (drawn green, as Slack does).
    const apply = body.locator('button.btn', { hasText: /^Apply/ });
    expect(await apply.count()).toBeGreaterThan(0);
    expect(await body.locator('button.btn.primary', { hasText: /^Apply/ }).count()).toBeGreaterThan(0);

    // The confirm dialog comes before anything is sent; Cancel sends nothing.
    await primaryButton(message).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible', timeout: 5_000 });
    expect((await page.locator('#confirm-title').textContent())?.trim()).not.toBe('');
    expect(clickRequests).toEqual([]);
    await page.locator('#confirm-deny').click();
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 });

    const before = clickRequests.length;
    const { label, dialog: dialogText, outcome } = await approveRecommended(page, message, STEP_MS);
    expect(before).toBe(0);
    expect(label).toMatch(/^Apply/);
    expect(dialogText.length).toBeGreaterThan(20);
    // One click went to the preview server, naming this message and the button's block.
    expect(clickRequests).toHaveLength(1);
    expect(JSON.parse(clickRequests[0] ?? '{}')).toMatchObject({
      channel: CHANNELS.incidents,
      ts: await message.getAttribute('data-ts'),
      actionId: expect.stringMatching(/^approve_plan/),
    });

    expect(await outcome.textContent()).toMatch(/rolled out/i);
    const replies = threadReplies(message);
    expect(await replies.count()).toBeGreaterThanOrEqual(2);
    expect(await replies.filter({ hasText: /applied/i }).count()).toBeGreaterThan(0);
    // No Apply button is left to click on the result: the approved one is a disabled status.
    expect(await body.locator('button.btn:enabled', { hasText: /^Apply/ }).count()).toBe(0);
    expect(await body.locator('button.btn:disabled').count()).toBeGreaterThan(0);
  });

  it('incident B: crash loop on node-b, the termination message shown as text however hostile, the exclusion rolled out', async () => {
    const message = await runCommand(page, {
      channel: CHANNELS.incidents,
      ...INCIDENT_COMMANDS.b,
      timeoutMs: STEP_MS,
    });
    const body = message.locator(':scope > .msg-body');
    const verdict = (await body.textContent()) ?? '';
    expect(verdict).toContain('node-b');
    expect(verdict).toMatch(/CrashLoopOnNode|crash/i);
    const { outcome } = await approveRecommended(page, message, STEP_MS);
    expect(await outcome.textContent()).toMatch(/rolled out/i);
    expect(await threadReplies(message).count()).toBeGreaterThanOrEqual(2);
    expect(await body.locator('button.btn:enabled', { hasText: /^Apply/ }).count()).toBe(0);

    // The hostile termination message reached the page, as characters.
    const shown = (await message.textContent()) ?? '';
    expect(shown).toContain('<img src=x onerror=document.body.dataset.pwned=1>');
    expect(shown).toContain('<script>document.body.dataset.pwned=2</script>');
    const channels = page.locator('#channels');
    expect(await channels.locator('img, script, iframe, [onerror]').count()).toBe(0);
    expect(await channels.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.locator('body').getAttribute('data-pwned')).toBeNull();
    expect(dialogs).toEqual([]);
    expect(pageProblems).toEqual([]);
  });

  it('raw HTML that reached Slack unescaped (an app bug) still renders as text; links only to http(s)', async () => {
    const raw = '<img src=x onerror=document.body.dataset.pwned=4>';
    const res = await fetch(`${session.slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_BOT_TOKEN}` },
      body: JSON.stringify({
        channel: CHANNELS.alerts,
        text: 'raw',
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: `header ${raw}` } },
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: `*bold* ${raw} <javascript:document.body.dataset.pwned=5|js link> <https://example.com/runbook|runbook>`,
            },
            fields: [{ type: 'mrkdwn', text: `field &lt;b&gt;${raw}` }],
          },
          { type: 'context', elements: [{ type: 'plain_text', text: `<b>context</b>` }] },
          {
            type: 'actions',
            elements: [
              {
                type: 'button',
                action_id: 'hostile',
                text: { type: 'plain_text', text: '<b>button</b>' },
                confirm: {
                  title: { type: 'plain_text', text: '<i>title</i>' },
                  text: { type: 'mrkdwn', text: raw },
                  confirm: { type: 'plain_text', text: 'Go' },
                  deny: { type: 'plain_text', text: 'Stop' },
                },
              },
            ],
          },
        ],
      }),
    });
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
    const message = channelMessages(page, CHANNELS.alerts).filter({ hasText: 'header <img' });
    await message.waitFor({ timeout: 10_000 });
    const text = (await message.textContent()) ?? '';
    // plain_text is shown as typed; in mrkdwn a raw <…> is Slack's link syntax, shown as its text.
    expect(text).toContain(`header ${raw}`);
    expect(text).toContain('bold img src=x onerror=document.body.dataset.pwned=4 js link runbook');
    expect(text).toContain('field <b>img src=x onerror=');
    expect(text).toContain('<b>context</b>');
    expect(text).toContain('<b>button</b>');
    expect(await message.locator('b', { hasText: 'bold' }).count()).toBe(1);
    expect(await message.locator('img, b b, i').count()).toBe(0);
    // The javascript: target is shown, never a link; the https one is.
    expect(await message.locator('a').count()).toBe(1);
    expect(await message.locator('a').getAttribute('href')).toBe('https://example.com/runbook');
    // The confirm dialog renders its text the same way; Cancel sends nothing.
    await message.locator('button.btn', { hasText: '<b>button</b>' }).click();
    await page.getByRole('dialog').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await page.locator('#confirm-title').textContent()).toBe('<i>title</i>');
    expect(await page.locator('#confirm-text').textContent()).toBe(
      'img src=x onerror=document.body.dataset.pwned=4',
    );
    expect(await page.locator('.dialog img').count()).toBe(0);
    await page.locator('#confirm-deny').click();
    expect(await page.locator('body').getAttribute('data-pwned')).toBeNull();
    expect(pageProblems).toEqual([]);
  });

  it("private answers: the app acknowledges help with an ephemeral message; an unknown command gets Slack's answer", async () => {
    const ephemerals = page.locator(`section[data-channel-id="${CHANNELS.incidents}"] .msg.ephemeral`);
    const before = await ephemerals.count();
    await page.locator('#channel').selectOption(CHANNELS.incidents);
    await page.locator('#command').fill('/rollout-doctor help');
    await page.locator('#send').click();
    const help = ephemerals.nth(before);
    await help.waitFor({ timeout: 10_000 });
    expect(await help.textContent()).toContain('Only visible to @U0LEAD');
    expect(await help.textContent()).toContain('/rollout-doctor');
    await page.locator('#command').fill('/rollout-doktor help');
    await page.locator('#send').click();
    const unknown = ephemerals.nth(before + 1);
    await unknown.waitFor({ timeout: 10_000 });
    expect(await unknown.textContent()).toContain('/rollout-doktor is not a valid command');
  });

  it('listens on 127.0.0.1 only: the page, the app, the simulator and the Slack stand-in', async () => {
    // Linux routes all of 127/8 to lo: a socket bound to every interface answers on 127.0.0.2 too.
    const answers = (host: string, port: number): Promise<boolean> =>
      new Promise((resolve) => {
        const socket = connect(port, host);
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
    const urls = {
      page: session.server.url,
      app: session.stack.appUrl,
      simulator: session.stack.sim.url,
      slack: session.slack.apiUrl,
    };
    for (const [name, url] of Object.entries(urls)) {
      const port = Number(new URL(url).port);
      expect(await answers('127.0.0.1', port), `${name} on 127.0.0.1`).toBe(true);
      expect(await answers('127.0.0.2', port), `${name} on 127.0.0.2`).toBe(false);
    }
  });

  it('answers only the page itself: another origin cannot post a click or a command', async () => {
    const url = new URL('api/command', session.server.url);
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ channel: CHANNELS.incidents, user: 'U0LEAD', text: '/rollout-doctor help' }),
    });
    expect(forged.status).toBe(403);
    // DNS rebinding: a page of another site whose name now points at 127.0.0.1.
    const rebound = await rawRequest(session.server.url, 'GET /api/state HTTP/1.1\r\nHost: evil.example');
    expect(rebound.status).toBe(421);
  });

  it('Teams: incident A again, drawn by adaptivecards; Approve and its confirm step reach the bot as signed Action.Execute invokes; the card says rolled out', async () => {
    const { sim } = session.stack;
    await openTeamsView(page);
    expect(await page.locator('#channels').isVisible()).toBe(false);
    // Both seeds are fixed by now (Slack): the tracker's surge strategy back, a newer image.
    await breakTrackerAgain(sim, STEP_MS);
    let post;
    try {
      post = await postInTeams(page, {
        channel: TEAMS_CHANNELS.incidents,
        ...TEAMS_COMMAND,
        timeoutMs: STEP_MS,
      });
    } finally {
      sim.resumeClock();
    }
    // Microsoft's renderer drew it (its own classes), as the lead's own refreshed view.
    expect(await post.locator('.ac-adaptiveCard').count()).toBe(1);
    expect(await post.getAttribute('data-view')).toBe('own');
    const card = (await post.locator('.teams-card').innerText()).trim();
    expect(card).toContain('RolloutSurgeDeadlock');
    expect(card).toContain('nvidia.com/gpu');
    // The person's post roots the thread, as text.
    const root = post.locator('xpath=..').locator('.teams-post').first();
    expect(await root.innerText()).toContain(TEAMS_COMMAND.text);

    const presses = (): { verb: string; trigger: string; data: { action?: { kind?: string } } }[] =>
      teamsRequests.map((r) => JSON.parse(r)).filter((r) => r.trigger === 'manual');
    const before = presses().length;
    const { label, question } = await approveInTeams(page, post, STEP_MS);
    expect(label).toMatch(/^Apply/);
    expect(question.length).toBeGreaterThan(label.length);
    // Two presses left the page: the confirm step, then the press itself, both the approve action.
    expect(
      presses()
        .slice(before)
        .map((p) => [p.verb, p.data.action?.kind]),
    ).toEqual([
      ['confirm', 'approve'],
      ['press', 'approve'],
    ]);
    const after = (await post.locator('.teams-card').innerText()).trim();
    expect(after).toMatch(/approved by .* at .*; (rolled out|replacement pods Ready) at/);
    expect(
      await teamsPrimaryButtons(post)
        .filter({ hasText: /^Apply/ })
        .count(),
    ).toBe(0);
    // The bot applied it: the tracker runs the new image, rolled out.
    const d = sim.get('Deployment', TRACKER.namespace, TRACKER.name) as Deployment;
    expect(d.status?.updatedReplicas).toBe(1);
    const pods = (sim.list('Pod', TRACKER.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
    expect(pods.map((p) => p.spec.containers[0]?.image)).toEqual([NEXT_IMAGE]);
    expect(pageProblems).toEqual([]);
  });

  it('Teams: markup in a card stays text (no Markdown, no HTML), and a forged press is refused by the page', async () => {
    // A page where a Markdown processor is loaded that passes HTML through (as markdown-it
    // with html: true would): the renderer must not use it, whatever the card says.
    const other = await browser.newPage();
    const problems: string[] = [];
    other.on('pageerror', (e) => problems.push(e.message));
    await other.addInitScript('window.markdownit = () => ({ render: (text) => text });');
    await openPreview(other, session.server.url, STEP_MS);
    await openTeamsView(other);
    const { teams } = session;
    const token = await fetch(teams.tokenUrl.replace('{tenant}', teams.tenantId), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: teams.appId,
        client_secret: 'demo-teams-secret-not-real',
        scope: 'https://api.botframework.com/.default',
      }),
    });
    const { access_token: bearer } = (await token.json()) as { access_token: string };
    const raw = '<img src=x onerror=document.body.dataset.pwned=6>';
    const conversation = `${TEAMS_CHANNELS.alerts};messageid=1`;
    const posted = await fetch(
      `${teams.serviceUrl}v3/conversations/${encodeURIComponent(conversation)}/activities`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        body: JSON.stringify({
          type: 'message',
          attachments: [
            {
              contentType: 'application/vnd.microsoft.card.adaptive',
              content: {
                type: 'AdaptiveCard',
                version: '1.5',
                body: [
                  {
                    type: 'TextBlock',
                    text: `**bold** ${raw} [js](javascript:document.body.dataset.pwned=7) # head`,
                  },
                  { type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: `run **x** ${raw}` }] },
                ],
                actions: [
                  {
                    type: 'Action.Execute',
                    title: 'Hostile',
                    verb: 'press',
                    data: { action: { kind: 'x' } },
                  },
                ],
              },
            },
          ],
        }),
      },
    );
    expect(posted.status).toBe(201);
    const { id } = (await posted.json()) as { id: string };
    const post = other.locator(`#teams .teams-post[data-activity-id="${id}"]`);
    await post.waitFor({ timeout: 10_000 });
    const text = await post.innerText();
    expect(text).toContain(`**bold** ${raw} [js](javascript:document.body.dataset.pwned=7) # head`);
    expect(text).toContain(`run **x** ${raw}`);
    expect(await post.locator('img, script, a, strong, b, em, h1').count()).toBe(0);
    expect(await other.locator('body').getAttribute('data-pwned')).toBeNull();
    // A press the card does not offer (a page script, not a click) is not sent to the bot.
    const forged = await other.evaluate(
      async (input) =>
        (
          await fetch('/api/teams/execute', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(input),
          })
        ).json(),
      {
        conversationId: conversation,
        activityId: id,
        verb: 'press',
        data: { action: { kind: 'approve', planId: 'plan-forged' } },
        user: '29:demo-lead',
        trigger: 'manual',
      },
    );
    expect(forged).toEqual({ ok: false, error: 'that button is not on the card' });
    expect(problems).toEqual([]);
    await other.close();
  });
});
