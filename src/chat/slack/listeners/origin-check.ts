import type { AnyMiddlewareArgs, App, Middleware } from '@slack/bolt';
import type { Logger } from '../../../logger.js';

/** Workspace and app a Slack payload says it comes from. */
interface SlackOrigin {
  teamId: string | undefined;
  enterpriseId: string | undefined;
  appId: string | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const idOf = (value: unknown): string | undefined =>
  value && typeof value === 'object' ? str((value as { id?: unknown }).id) : undefined;

/**
 * Reads the origin from a payload body: slash commands carry `team_id`,
 * `enterprise_id` and `api_app_id` form fields; interactions (block_actions,
 * view_submission) carry `team.id`, `enterprise.id` and `api_app_id`; events
 * carry `team_id` and `api_app_id`.
 */
function slackOrigin(body: unknown): SlackOrigin {
  const b = (body ?? {}) as Record<string, unknown>;
  return {
    teamId: str(b['team_id']) ?? idOf(b['team']),
    enterpriseId: str(b['enterprise_id']) ?? idOf(b['enterprise']),
    appId: str(b['api_app_id']),
  };
}

/**
 * Why a payload is refused, or undefined when it may pass. A team is allowed when its
 * workspace id or its Enterprise Grid org id is listed; a payload without the field
 * is refused once the setting is on, since Slack always sends both.
 */
function originRefusal(
  origin: SlackOrigin,
  allowed: { teamIds: readonly string[]; appId: string | undefined },
): string | undefined {
  if (allowed.teamIds.length > 0) {
    const ids = [origin.teamId, origin.enterpriseId].filter((id): id is string => id !== undefined);
    if (!ids.some((id) => allowed.teamIds.includes(id))) return 'team';
  }
  if (allowed.appId !== undefined && origin.appId !== allowed.appId) return 'app';
  return undefined;
}

/**
 * Global middleware: a correctly signed payload from another workspace or app (an
 * org-wide install, a signing secret shared between apps) is acked and dropped with a
 * warning, before any listener runs. Silent rather than an ephemeral refusal: the
 * other workspace learns nothing, and no reply is sent to a response_url we do not own.
 */
export function registerOriginCheck(
  app: App,
  allowed: { teamIds: readonly string[]; appId: string | undefined },
  logger: Pick<Logger, 'warn'>,
): void {
  if (allowed.teamIds.length === 0 && allowed.appId === undefined) {
    logger.warn(
      'SLACK_TEAM_ID and SLACK_APP_ID are not set: signed requests from any workspace or app are accepted',
    );
    return;
  }
  const check: Middleware<AnyMiddlewareArgs> = async (args) => {
    const origin = slackOrigin(args.body);
    const refusal = originRefusal(origin, allowed);
    if (refusal === undefined) {
      await args.next();
      return;
    }
    logger.warn(
      { audit: true, reason: `foreign-${refusal}`, teamId: origin.teamId, appId: origin.appId },
      'refused a Slack request from another workspace or app',
    );
    const { ack } = args as { ack?: () => Promise<void> };
    if (ack) await ack();
  };
  app.use(check);
}
