/**
 * `npm run demo -- --chat teams`: both seed incidents through the Teams path. The Teams
 * stand-in (test/support/teams-standin.ts) plays Microsoft's side on loopback (OpenID
 * metadata and keys, the Entra token endpoint, the Bot Connector); the app validates its
 * signed activities unmodified. Story 1: a person sends `@rollout-doctor diagnose …` in
 * a channel thread. Story 2, as in the Slack demo: Alertmanager's KubePodCrashLooping is
 * posted to the app's alert route and the app opens a thread in the Teams alerts channel
 * (TEAMS_ALERT_CONVERSATION) with the diagnosis in it. Each time the result card comes
 * back, an approver presses Approve (a signed `adaptiveCard/action` invoke) and the card
 * says rolled out.
 */
import {
  startTeamsStandin,
  type Person,
  type PostedActivity,
  type TeamsStandin,
} from '../../test/support/teams-standin.js';
import { CARD_CONTENT_TYPE } from '../../src/chat/teams/cards.js';
import { cleanText } from '../../src/text/clean.js';
import { CHECKOUT, TRACKER } from '../demo-scenario.js';
import { checkCheckoutFixed, fireAlert, waitForCrashingPod } from './checkout-story.js';
import { act, type StoryContext, waitForRecord } from './context.js';
import type { Cleanup } from './cleanup.js';
import { DemoError } from './demo-error.js';
import { renderActivity } from './teams-render.js';
import { breakTracker, checkTrackerFixed } from './tracker-story.js';

/** The demo's Teams people: Entra object ids are what ROLLOUT_DOCTOR_APPROVERS and _READERS list. */
export const TEAMS_PEOPLE = {
  oncall: { id: '29:demo-oncall', name: 'On-call', aadObjectId: '00000000-0000-4000-8000-00000000a001' },
  lead: { id: '29:demo-lead', name: 'Lead', aadObjectId: '00000000-0000-4000-8000-00000000a002' },
} as const satisfies Record<string, Person>;
/** How the demo names its Teams people: by name, never by Entra object id (the audit lines at the end). */
export const TEAMS_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(TEAMS_PEOPLE).map((p) => [p.aadObjectId, p.name]),
);
const CHANNEL = '19:demo-incidents@thread.tacv2';
/** Where the app opens alert threads (TEAMS_ALERT_CONVERSATION). */
const ALERTS = '19:demo-alerts@thread.tacv2';
/** The demo's Teams channels (the preview posts in `incidents`). */
export const TEAMS_CHANNELS = { incidents: CHANNEL, alerts: ALERTS } as const;
/** How the printer names the demo's Teams channels. */
export const TEAMS_CHANNEL_NAMES: Readonly<Record<string, string>> = {
  [CHANNEL]: '#incidents',
  [ALERTS]: '#alerts',
};
const APP_PASSWORD = 'demo-teams-secret-not-real';

/** The stand-in, started and registered with cleanup, and the app settings that point at it. */
export async function startDemoTeams(cleanup: Cleanup): Promise<{
  teams: TeamsStandin;
  settings: {
    env: Record<string, string>;
    approvers: string[];
    readers: string[];
    names: Record<string, string>;
  };
}> {
  const teams = await cleanup.starting(() => startTeamsStandin({ appPassword: APP_PASSWORD }));
  cleanup.register('Teams stand-in', () => teams.close());
  const env = {
    TEAMS_APP_ID: teams.appId,
    TEAMS_APP_PASSWORD: APP_PASSWORD,
    TEAMS_TENANT_ID: teams.tenantId,
    TEAMS_OPENID_METADATA_URL: teams.openIdMetadataUrl,
    TEAMS_TOKEN_URL: teams.tokenUrl,
    TEAMS_SERVICE_URL: teams.serviceUrl,
    TEAMS_SERVICE_URL_HOSTS: new URL(teams.serviceUrl).host,
    TEAMS_ALERT_CONVERSATION: ALERTS,
  };
  return {
    teams,
    settings: {
      env,
      approvers: [TEAMS_PEOPLE.lead.aadObjectId],
      readers: [TEAMS_PEOPLE.oncall.aadObjectId],
      names: TEAMS_NAMES,
    },
  };
}

const textOf = (a: PostedActivity): string => renderActivity(a.activity).join('\n');

/** The Action.Execute data of the card's button whose ChatAction is of `kind`. */
function actionData(a: PostedActivity, kind: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  const walk = (v: unknown): void => {
    if (found !== undefined || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(walk);
    const o = v as Record<string, unknown>;
    const data = o.data as { action?: { kind?: string } } | undefined;
    if (o.type === 'Action.Execute' && data?.action?.kind === kind) found = data;
    Object.values(o).forEach(walk);
  };
  walk(a.activity.attachments);
  return found;
}

/**
 * The card's state line (src/chat/use-cases/outcome.ts stateLine): "… approved by A at
 * T; rolled out at T", or a stage that ends the remediation badly.
 */
const APPLYING = /^.* approved by .*; applying…$/;
const ROLLED_OUT = /^.* approved by .*; (rolled out|replacement pods Ready) at .*$/m;
const BAD_OUTCOME =
  /^.* approved by .*; (applied, but the pods still fail|not applied: refused|not applied: failed|applied; the rollout did not finish in time|applied; the rollout is paused.*) at .*$/m;

/**
 * On-call asks in a new thread; the result card must carry `verdict`; the lead approves
 * and the card must say rolled out.
 */
async function askAndApproveInTeams(
  ctx: StoryContext,
  teams: TeamsStandin,
  step: { command: string; verdict: string; what: string; thread: string },
): Promise<void> {
  const botUrl = `${ctx.appUrl}/api/messages`;
  const conversationId = `${CHANNEL};messageid=${step.thread}`;
  ctx.say(`  ${TEAMS_PEOPLE.oncall.name} in the #incidents thread: @rollout-doctor ${step.command}`);
  const sent = await act(ctx, () =>
    teams.send(botUrl, teams.message({ text: step.command, from: TEAMS_PEOPLE.oncall, conversationId })),
  );
  if (sent.status !== 200) throw new DemoError(`the bot answered the message with HTTP ${sent.status}`);
  const result = await resultIn(ctx, teams, conversationId, step);
  ctx.done(`✔ diagnosed ${step.what}: ${step.verdict}`);
  await approveInTeams(ctx, teams, result, step.what);
}

/**
 * Alertmanager fires for `pod`; the app must open a thread in the Teams alerts channel
 * whose result card carries `verdict`; the lead approves and the card must say rolled out.
 */
async function alertAndApproveInTeams(
  ctx: StoryContext,
  teams: TeamsStandin,
  step: { pod: string; workload: string; verdict: string; what: string },
): Promise<void> {
  ctx.say(
    `  Alertmanager fires KubePodCrashLooping for pod ${step.what.split('/')[0] ?? ''}/${step.pod} (POST /alerts/alertmanager, bearer token)`,
  );
  await act(ctx, () => fireAlert(ctx, step.pod));
  // A thread root is the activity its channel conversation was created with.
  const root = await waitForRecord(
    ctx,
    () =>
      teams
        .posted(ALERTS)
        .find((a) => a.conversationId === `${ALERTS};messageid=${a.id}` && textOf(a).includes(step.workload)),
    `no alert thread for ${step.workload} in the Teams alerts channel within ${ctx.stepTimeoutMs / 1000} s`,
  );
  ctx.done('✔ the app opened an alert thread in the Teams #alerts channel');
  const result = await resultIn(ctx, teams, root.conversationId, step, root.id);
  ctx.done(`✔ diagnosed ${step.what} from the alert: ${step.verdict}`);
  await approveInTeams(ctx, teams, result, step.what);
}

/** The card with Approve posted in `conversationId` (not `notRoot`), checked for `verdict`. */
async function resultIn(
  ctx: StoryContext,
  teams: TeamsStandin,
  conversationId: string,
  step: { verdict: string; what: string },
  notRoot?: string,
): Promise<PostedActivity> {
  const result = await waitForRecord(
    ctx,
    () =>
      teams
        .posted(conversationId.split(';')[0])
        .find(
          (a) =>
            a.conversationId === conversationId && a.id !== notRoot && actionData(a, 'approve') !== undefined,
        ),
    `${step.what}: no result card with Approve within ${ctx.stepTimeoutMs / 1000} s`,
  );
  if (!textOf(result).includes(step.verdict))
    throw new DemoError(`${step.what}'s verdict is not ${step.verdict}: ${textOf(result)}`);
  return result;
}

/** The lead presses Approve on `result`; its state line must end saying rolled out (a bad outcome fails at once). */
async function approveInTeams(
  ctx: StoryContext,
  teams: TeamsStandin,
  result: PostedActivity,
  what: string,
): Promise<void> {
  const botUrl = `${ctx.appUrl}/api/messages`;
  ctx.say(`  ${TEAMS_PEOPLE.lead.name} (an approver) presses Approve on the card`);
  const data = actionData(result, 'approve') ?? {};
  const invoke = teams.cardAction({
    verb: 'press',
    data,
    from: TEAMS_PEOPLE.lead,
    conversationId: result.conversationId,
    replyToId: result.id,
  });
  const pressed = await act(ctx, () => teams.send(botUrl, invoke));
  if (pressed.status !== 200) throw new DemoError(`the bot answered Approve with HTTP ${pressed.status}`);
  // Teams shows the answer's card in place of the pressed one: taken, its state line says
  // "applying…"; refused, the card (or a text) says why first.
  const answer = (pressed.body ?? {}) as { type?: unknown; value?: unknown };
  const shown =
    answer.type === CARD_CONTENT_TYPE
      ? renderActivity({ attachments: [{ content: answer.value }] })
      : [cleanText(JSON.stringify(answer.value ?? answer), { singleLine: true })];
  if (!shown.some((line) => APPLYING.test(line)))
    throw new DemoError(`${what}: Approve was not taken: ${shown[0] ?? ''}`);
  const state = await waitForRecord(
    ctx,
    () => {
      const text = textOf(teams.activities.get(result.id) ?? result);
      return ROLLED_OUT.exec(text)?.[0] ?? BAD_OUTCOME.exec(text)?.[0];
    },
    `${what}: the card did not say "rolled out" within ${ctx.stepTimeoutMs / 1000} s`,
  );
  if (!ROLLED_OUT.test(state)) throw new DemoError(`${what}: ${state}`);
  ctx.done(`✔ the card says: ${state.trim()}`);
}

/** Story 1 (asked by message) then story 2 (from an alert), both through Teams. */
export async function playTeamsStories(ctx: StoryContext, teams: TeamsStandin): Promise<void> {
  await breakTracker(ctx);
  await askAndApproveInTeams(ctx, teams, {
    command: `diagnose deployment/${TRACKER.name} -n ${TRACKER.namespace}`,
    verdict: 'RolloutSurgeDeadlock',
    what: `${TRACKER.namespace}/${TRACKER.name}`,
    thread: '1732536000001',
  });
  await checkTrackerFixed(ctx);
  const pod = await waitForCrashingPod(ctx);
  await alertAndApproveInTeams(ctx, teams, {
    pod,
    workload: `${CHECKOUT.namespace}/deployment/${CHECKOUT.name}`,
    verdict: 'CrashLoopOnNode',
    what: `${CHECKOUT.namespace}/${CHECKOUT.name}`,
  });
  await checkCheckoutFixed(ctx);
}
