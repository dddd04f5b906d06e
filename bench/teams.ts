/**
 * Microsoft Teams: how long the bot takes to answer an `adaptiveCard/action`
 * invoke (Teams waits a few seconds for it, then shows the user an error), measured
 * from the Teams stand-in's request to the bot's answer on loopback: Bot Framework
 * token validation (jose, keys cached), the activity's schema, the card record and the
 * per-user render. The use-cases are a fake that answers at once, so the figures are
 * the adapter's own cost (an approval adds the press use-case's Redis work, as on
 * Slack). The size of the cards against Teams' ~28 KB message limit. And the alert
 * flood of bench/alert-flood.ts with its threads in a Teams channel (teams-flood.ts).
 *
 * Run: npx tsx bench/teams.ts
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { ChatUseCases } from '../src/chat/adapter.js';
import type { ChatMessage } from '../src/chat/model.js';
import { plain, say, strong } from '../src/message/rich.js';
import { memoryCardStore } from '../src/chat/teams/adapter.js';
import { cardActivity, CODE_MAX_CHARS } from '../src/chat/teams/cards.js';
import { createLogger } from '../src/logger.js';
import { startTeamsStandin, TEAMS_MESSAGE_MAX_BYTES } from '../test/support/teams-standin.js';
import { startBareTeamsBot } from '../test/support/teams-bot.js';
import { percentile, round2 } from './lib/stats.js';
import { runTeamsFloodBench, type TeamsFloodResult } from './teams-flood.js';
import type { Section } from './report.js';

const INVOKES = 300;
const TARGET_P99_MS = 1_000;

export interface TeamsBench {
  refresh: { p50: number; p99: number };
  press: { p50: number; p99: number };
  cardBytes: { typical: number; largest: number };
  flood: TeamsFloodResult;
}

/** A result as the port says it: evidence, one fix with a confirm step, Re-run. */
function resultMessage(events: number, logChars: number): ChatMessage {
  return {
    summary: say`web is stuck: surge deadlock`,
    parts: [
      { kind: 'heading', text: 'deployment/web in shop' },
      {
        kind: 'paragraph',
        text: say`${strong('RolloutSurgeDeadlock')}: the pods quota is full`,
        role: 'verdict',
      },
      {
        kind: 'table',
        title: plain('Events'),
        header: ['Reason', 'Object', 'Message'],
        rows: Array.from({ length: events }, (_, i) => [
          'FailedCreate',
          `replicaset/web-7d9f${i}`,
          'exceeded quota: pods, requested: pods=1, used: pods=10, limited: pods=10',
        ]),
      },
      { kind: 'code', title: plain('Last log lines'), body: 'x'.repeat(logChars) },
      {
        kind: 'actions',
        buttons: [
          {
            label: 'Apply: scale the old ReplicaSet',
            style: 'primary',
            action: { kind: 'approve', planId: 'plan-1', shown: 'a'.repeat(64), requester: null },
            confirm: { title: 'Apply this fix?', text: 'Scales web-old to 2', yes: 'Apply', no: 'Cancel' },
          },
        ],
      },
    ],
  };
}

export async function runTeamsBench(): Promise<TeamsBench> {
  const teams = await startTeamsStandin({ appPassword: 'bench' });
  const logger = createLogger({ level: 'silent', name: 'bench-teams' });
  const useCases: ChatUseCases = {
    command: async () => ({ kind: 'private', message: { summary: plain('-'), parts: [] } }),
    press: async () => ({ tell: { summary: plain('You are not an approver here'), parts: [] } }),
    announce: async () => null,
  };
  const { adapter, server, botUrl } = await startBareTeamsBot({
    teams,
    appPassword: 'bench',
    store: memoryCardStore(),
    useCases,
    logger,
    refreshUserIds: () => ['29:approver'],
    keepAliveTimeoutMs: 5_000,
  });
  try {
    const conversationId = '19:bench@thread.tacv2;messageid=1';
    const ref = await adapter.post(
      { platform: 'teams', id: '19:bench@thread.tacv2', thread: '1' },
      resultMessage(5, 800),
    );
    const from = { id: '29:approver', name: 'Approver', aadObjectId: randomUUID() };
    const token = await teams.signToken();
    const timed = async (verb: string, data: Record<string, unknown>): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < INVOKES + 20; i++) {
        const invoke = teams.cardAction({ verb, data, from, conversationId, replyToId: ref.id });
        const answer = await teams.send(botUrl, invoke, { token });
        if (answer.status !== 200) throw new Error(`invoke answered ${answer.status}`);
        if (i >= 20) times.push(answer.ms);
      }
      return times.sort((a, b) => a - b);
    };
    const refresh = await timed('refresh', {});
    const action = { kind: 'approve', planId: 'plan-1', shown: 'a'.repeat(64), requester: null };
    const press = await timed('press', { action });
    const bytes = (m: ChatMessage) =>
      Buffer.byteLength(
        JSON.stringify(cardActivity(m, { refreshUserIds: Array(60).fill('29:x'.padEnd(60, 'x')) })),
      );
    const figures = {
      refresh: { p50: round2(percentile(refresh, 50)), p99: round2(percentile(refresh, 99)) },
      press: { p50: round2(percentile(press, 50)), p99: round2(percentile(press, 99)) },
      cardBytes: { typical: bytes(resultMessage(5, 800)), largest: bytes(resultMessage(40, 50_000)) },
    };
    await server.close();
    await teams.close();
    return { ...figures, flood: await runTeamsFloodBench() };
  } catch (error) {
    await server.close();
    await teams.close();
    throw error;
  }
}

export function teamsSection(r: TeamsBench): Section {
  const kb = (n: number) => `${round2(n / 1024)} KB`;
  return {
    title: 'Microsoft Teams: invoke answers, card size and the alert flood',
    rows: [
      {
        figure: `Action.Execute refresh answered, per-user card (p50 / p99 of ${INVOKES})`,
        median: `${r.refresh.p50} / ${r.refresh.p99} ms`,
        comparison: 'Teams waits a few seconds',
        target: `p99 < ${TARGET_P99_MS} ms`,
        met: r.refresh.p99 < TARGET_P99_MS,
      },
      {
        figure: `Action.Execute press answered (p50 / p99 of ${INVOKES}; fake use-case)`,
        median: `${r.press.p50} / ${r.press.p99} ms`,
        comparison: 'Teams waits a few seconds',
        target: `p99 < ${TARGET_P99_MS} ms`,
        met: r.press.p99 < TARGET_P99_MS,
      },
      {
        figure: 'result card activity, 5 events, 800-character log, 60 refresh users',
        median: kb(r.cardBytes.typical),
        comparison: `Teams limit ~${kb(TEAMS_MESSAGE_MAX_BYTES)}`,
        target: `< ${kb(TEAMS_MESSAGE_MAX_BYTES)}`,
        met: r.cardBytes.typical < TEAMS_MESSAGE_MAX_BYTES,
      },
      {
        figure: `largest: 40 events (20 shown), 50,000-character log (${CODE_MAX_CHARS} shown)`,
        median: kb(r.cardBytes.largest),
        comparison: `Teams limit ~${kb(TEAMS_MESSAGE_MAX_BYTES)}`,
        target: `< ${kb(TEAMS_MESSAGE_MAX_BYTES)}`,
        met: r.cardBytes.largest < TEAMS_MESSAGE_MAX_BYTES,
      },
      {
        figure: `alert flood, ${r.flood.workloads} workloads in ${r.flood.notifications} notifications: threads opened in the Teams channel (summaries included)`,
        median: `${r.flood.threadsOpened + r.flood.summaries}`,
        comparison: `${r.flood.summaries} of them overflow summaries; before the caps: 3,000 threads`,
        target: '<= per-minute cap + one summary per notification and minute',
        met: r.flood.threadsOpened + r.flood.summaries <= 60 + r.flood.notifications + 1,
      },
      {
        figure: 'alert flood: Bot Connector posts made',
        median: `${r.flood.connectorPosts}`,
        comparison: `settled in ${r.flood.settledMs} ms; before the caps: about 6,000`,
        target: '—',
        met: undefined,
      },
      {
        figure: 'alert flood: diagnoses run',
        median: `${r.flood.diagnoseJobs}`,
        comparison: 'before the caps: 3,000',
        target: '<= 60 (ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE)',
        met: r.flood.diagnoseJobs <= 60,
      },
    ],
    notes: [
      'Loopback, sequential invokes with one connector token (as the Bot Connector reuses its token); keys fetched once from the stand-in.',
      "Flood: runTeamsFloodBench() from bench/teams-flood.ts, the Slack flood's notifications against a Teams-only app (TEAMS_ALERT_CONVERSATION) and a worker on the fake cluster, the Teams stand-in as Bot Connector; counted once every queue was idle.",
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await runTeamsBench(), null, 2));
}
