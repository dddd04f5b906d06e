/**
 * One install serves Slack, Microsoft Teams or both (src/config/slack.ts, teams.ts):
 * the app's configuration with each set of chat settings, and the errors that name
 * what is missing when a set is incomplete or there is none.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadAppConfig } from '../../src/config/environment.js';
import { testKeys } from '../support/plan-keys.js';

const SLACK = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
const TEAMS = {
  TEAMS_APP_ID: '00000000-0000-4000-8000-000000000001',
  TEAMS_APP_PASSWORD: 'pw',
  TEAMS_TENANT_ID: '00000000-0000-4000-8000-0000000000AA',
};

/** The problems loadAppConfig names, one per line. */
function problems(env: Record<string, string>): string[] {
  try {
    loadAppConfig({ ...testKeys.appEnv, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
}

describe('chat platforms in the app configuration', () => {
  it('Slack only: Slack settings, Teams off', () => {
    const c = loadAppConfig({ ...testKeys.appEnv, ...SLACK });
    expect(c.slack).toMatchObject({ botToken: 'xoxb-1', signingSecret: 's' });
    expect(c.teams).toBeUndefined();
    expect(c.mode).toBe('http');
  });

  it('Teams only: no Slack variable at all, Slack off', () => {
    const c = loadAppConfig({ ...testKeys.appEnv, ...TEAMS });
    expect(c.slack).toBeUndefined();
    expect(c.teams).toMatchObject({
      appId: TEAMS.TEAMS_APP_ID,
      tenantId: TEAMS.TEAMS_TENANT_ID.toLowerCase(),
    });
    // Empty values (a chart or .env with the Slack keys left blank) are the same as unset.
    const blank = loadAppConfig({
      ...testKeys.appEnv,
      ...TEAMS,
      SLACK_BOT_TOKEN: '',
      SLACK_SIGNING_SECRET: ' ',
      SLACK_APP_TOKEN: '',
    });
    expect(blank.slack).toBeUndefined();
  });

  it('both: each its own settings', () => {
    const c = loadAppConfig({ ...testKeys.appEnv, ...SLACK, ...TEAMS, SLACK_APP_TOKEN: 'xapp-1' });
    expect(c.slack?.appToken).toBe('xapp-1');
    expect(c.mode).toBe('socket');
    expect(c.teams?.appId).toBe(TEAMS.TEAMS_APP_ID);
  });

  it('neither: one error naming the variables of each platform', () => {
    expect(problems({})).toEqual([
      expect.stringMatching(
        /^no chat platform is configured: set SLACK_BOT_TOKEN .*SLACK_SIGNING_SECRET .*TEAMS_APP_ID .*TEAMS_APP_PASSWORD .*TEAMS_TENANT_ID/,
      ),
    ]);
  });

  it('an incomplete set names what is missing', () => {
    expect(problems({ SLACK_SIGNING_SECRET: 's', ...TEAMS })).toEqual([
      'SLACK_BOT_TOKEN is required when SLACK_SIGNING_SECRET is set',
    ]);
    expect(problems({ SLACK_BOT_TOKEN: 'xoxb-1' })).toEqual([
      'SLACK_SIGNING_SECRET is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
    ]);
    expect(problems({ TEAMS_APP_ID: TEAMS.TEAMS_APP_ID })).toEqual([
      expect.stringMatching(/^TEAMS_APP_PASSWORD is required when TEAMS_APP_ID is set/),
      expect.stringMatching(/^TEAMS_TENANT_ID is required when TEAMS_APP_ID is set/),
    ]);
    expect(problems({ ...SLACK, TEAMS_TENANT_ID: TEAMS.TEAMS_TENANT_ID })).toEqual([
      'TEAMS_APP_ID is required when TEAMS_TENANT_ID is set',
    ]);
    expect(problems({ ...TEAMS, SLACK_BOT_TOKEN: 'xoxp-user' })).toEqual([
      'SLACK_BOT_TOKEN must be a bot token (xoxb-…)',
      'SLACK_SIGNING_SECRET is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
    ]);
  });
});
