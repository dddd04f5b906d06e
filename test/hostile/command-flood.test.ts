/**
 * One reader sending commands as fast as Slack relays them (issue 27.8): past the
 * person's budget per minute each further command is answered privately and starts
 * nothing (no public post, no job queued ahead of alerts), and another person in
 * another channel is not held up by it. Real app, real Redis, Slack stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, type E2eHarness } from '../support/e2e-harness.js';

let h: E2eHarness;

beforeAll(async () => {
  h = await startE2e({
    scenario: 'sim/scenarios/gpu-deadlock.yaml',
    appEnv: {
      ROLLOUT_DOCTOR_COMMANDS_PER_USER_PER_MINUTE: '3',
      ROLLOUT_DOCTOR_COMMANDS_PER_CHANNEL_PER_MINUTE: '5',
    },
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const publicPosts = (): number =>
  h.slack.calls.filter((c) => c.method === 'chat.postMessage' && String(c.args.text).includes('asked for'))
    .length;

describe('slash command budget', () => {
  it('past 3 per person a minute: private answers, no post, no job; another person elsewhere still runs', async () => {
    const flood = [];
    for (let i = 0; i < 8; i++)
      flood.push(
        await h.command(`diagnose deployment/web-${i} -n vision`, { user: 'U0FLOOD', channel: 'C0FLOOD' }),
      );
    expect(flood.map((r) => r.status)).toEqual(Array(8).fill(200));
    const limited = flood.filter((r) => r.body.includes('Not started: you started 3 commands this minute'));
    expect(limited).toHaveLength(5);
    await h.slack.waitFor(() => publicPosts() >= 3, 10_000);
    expect(h.audit().filter((e) => e.action === 'refusal' && e.reason === 'rate-limited')).toHaveLength(5);

    const other = await h.command('diagnose deployment/vision-object-tracker -n vision', {
      user: 'U0OTHER',
      channel: 'C0OTHER',
    });
    expect(other.body).not.toContain('Not started');
    await h.slack.waitFor(() => publicPosts() >= 4, 10_000);
    expect(publicPosts()).toBe(4);
  });

  it('the channel budget holds for everyone in the channel together', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++)
      for (const user of ['U0ANNA', 'U0BEN'])
        answers.push(
          await h.command(`diagnose deployment/api-${user.toLowerCase()}-${i} -n vision`, {
            user,
            channel: 'C0BUSY',
          }),
        );
    expect(
      answers.filter((r) => r.body.includes('this channel started 5 commands this minute')),
    ).toHaveLength(1);
  });
});
