import { z } from 'zod';

/**
 * Slack settings of the app (docs/configuration.md, "Slack"). Slack is on when
 * SLACK_BOT_TOKEN is set; then SLACK_SIGNING_SECRET (HTTP mode) or SLACK_APP_TOKEN
 * (Socket Mode) is required. An install may serve Slack, Microsoft Teams
 * (src/config/teams.ts) or both, never neither.
 */

const emptyToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

export const slackEnvShape = {
  SLACK_BOT_TOKEN: optional(z.string().regex(/^xoxb-/, 'must be a bot token (xoxb-…)')),
  SLACK_SIGNING_SECRET: optional(z.string()),
  SLACK_APP_TOKEN: optional(z.string().regex(/^xapp-/, 'must be an app-level token (xapp-…)')),
  SLACK_API_URL: optional(
    z
      .url({ protocol: /^https?$/ })
      // WebClient joins method names onto this base: it must end with '/'.
      .transform((v) => (v.endsWith('/') ? v : `${v}/`)),
  ),
  SLACK_TEAM_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      )
      .refine(
        (ids) => ids.every((id) => /^[TE][A-Z0-9]{2,}$/.test(id)),
        'must be Slack team (T…) or org (E…) ids',
      ),
  ),
  SLACK_APP_ID: optional(z.string().regex(/^A[A-Z0-9]{2,}$/, 'must be an app id (A…)')),
};

export interface SlackConfig {
  readonly botToken: string;
  readonly signingSecret: string | undefined;
  readonly appToken: string | undefined;
  /** Web API base URL ending in '/', or undefined for Slack's own. */
  readonly apiUrl: string | undefined;
  /** Workspaces (T…) or orgs (E…) whose requests are served; empty: any (warned at start). */
  readonly teamIds: readonly string[];
  /** The only api_app_id served; undefined: any. */
  readonly appId: string | undefined;
}

type Env = Record<string, string | undefined>;

const present = (env: Env, name: string): boolean => (env[name] ?? '').trim() !== '';

/**
 * Problems of the chat settings taken together, on the raw environment (so they are
 * reported beside any malformed value): Slack settings without the bot token, a bot
 * token without a way to receive requests, and no chat platform at all.
 */
export function chatPlatformProblems(env: Env): string[] {
  const slack = present(env, 'SLACK_BOT_TOKEN');
  const teams = present(env, 'TEAMS_APP_ID');
  if (!slack) {
    const stray = Object.keys(slackEnvShape).filter(
      (name) => name !== 'SLACK_BOT_TOKEN' && present(env, name),
    );
    if (stray.length > 0) return [`SLACK_BOT_TOKEN is required when ${stray.join(', ')} is set`];
    if (!teams)
      return [
        'no chat platform is configured: set SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN) for Slack, TEAMS_APP_ID with TEAMS_APP_PASSWORD (or TEAMS_CERTIFICATE_FILE) and TEAMS_TENANT_ID for Microsoft Teams, or both',
      ];
    return [];
  }
  if (!present(env, 'SLACK_APP_TOKEN') && !present(env, 'SLACK_SIGNING_SECRET'))
    return ['SLACK_SIGNING_SECRET is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)'];
  return [];
}

/** The Slack settings, or undefined when Slack is off. Call after chatPlatformProblems found none. */
export function slackSettings(env: z.infer<z.ZodObject<typeof slackEnvShape>>): SlackConfig | undefined {
  if (env.SLACK_BOT_TOKEN === undefined) return undefined;
  return Object.freeze({
    botToken: env.SLACK_BOT_TOKEN,
    signingSecret: env.SLACK_SIGNING_SECRET,
    appToken: env.SLACK_APP_TOKEN,
    apiUrl: env.SLACK_API_URL,
    teamIds: Object.freeze([...env.SLACK_TEAM_ID]),
    appId: env.SLACK_APP_ID,
  });
}
