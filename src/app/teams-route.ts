import type { AppRoute } from './http-server.js';
import type { ChatUseCases } from '../chat/adapter.js';
import { bodyGate } from './body-gate.js';
import { teamsAdapter, type CardStore, type TeamsAdapter } from '../chat/teams/adapter.js';
import { botAuthenticator } from '../chat/teams/bot-auth.js';
import { certificateSource, type CertificateSource } from '../chat/teams/certificate.js';
import { botConnector } from '../chat/teams/connector.js';
import { TEAMS_MESSAGES_PATH, teamsEndpoint } from '../chat/teams/endpoint.js';
import { teamsInbound } from '../chat/teams/inbound.js';
import { openIdKeys } from '../chat/teams/openid-keys.js';
import { cachedDirectory, type TeamsDirectory } from '../chat/teams/directory.js';
import type { RefreshList } from '../chat/teams/refresh-list.js';
import { runCommand, type CommandWords } from '../chat/use-cases/command.js';
import type { TeamsConfig } from '../config/teams.js';
import type { AppServices } from './services.js';
import { announceRun } from '../chat/notify/announce.js';
import { answerPress } from '../chat/use-cases/approve-press.js';
import { isId } from '../platforms/chat-refs.js';

/** How Teams users call the app, and let it into a conversation. */
const TEAMS_COMMAND_WORDS: CommandWords = {
  command: '@rollout-doctor',
  invite: 'add rollout-doctor to this team or chat (Apps → Manage your apps)',
};

/**
 * Teams' body limits: activities are bigger than Slack's payloads (a card action
 * carries the card's data) but still small; the connector sends them at once.
 */
const TEAMS_BODY_LIMITS = {
  maxBytes: 256 * 1024,
  maxConcurrent: 64,
  maxPerPeer: 16,
  deadlineMs: 5_000,
  minBytesPerSecond: 8 * 1024,
  rateGraceMs: 1_000,
};

/**
 * Private answers not said (past a person's bound, or nobody reachable privately),
 * counted and logged at most once a minute: a flood must not flood the log either.
 */
function untoldLog(logger: AppServices['logger'], now = Date.now) {
  let since = now();
  const counts = { bounded: 0, unreachable: 0 };
  return (_person: unknown, why: keyof typeof counts): void => {
    counts[why] += 1;
    if (now() - since < 60_000 && counts.bounded + counts.unreachable > 1) return;
    logger.info({ ...counts }, 'teams private answers not said (past the bound, or no personal chat)');
    since = now();
    counts.bounded = 0;
    counts.unreachable = 0;
  };
}

interface TeamsRoute {
  route: AppRoute;
  adapter: TeamsAdapter;
}

/**
 * The bot's credential for its own token: the client secret, or the certificate files,
 * read again at every token fetch (a rotated certificate is picked up without a
 * restart). Logged: the certificate's SHA-1 thumbprint (as the Entra admin center shows
 * it) and validity, never the key.
 */
const CERTIFICATE_WARN_MS = 14 * 24 * 3600 * 1000;

function botCredential(
  teams: TeamsConfig,
  logger: AppServices['logger'],
): { appPassword: string } | { certificate: CertificateSource } {
  if (teams.credential.kind === 'secret') return { appPassword: teams.credential.appPassword };
  const source = certificateSource(teams.credential, {
    loaded: ({ thumbprintSha1, notBefore, notAfter }) =>
      logger.info({ thumbprint: thumbprintSha1, notBefore, notAfter }, 'teams certificate loaded'),
    unusable: (error) =>
      logger.warn(
        { err: error },
        'teams certificate files changed but are unusable; the last good certificate is kept',
      ),
  });
  // Checked at every token fetch (about hourly), said at most once a day per certificate.
  const said = new Map<string, number>();
  const certificate: CertificateSource = {
    async current() {
      const credential = await source.current();
      const now = Date.now();
      const { thumbprintSha1: thumbprint, notBefore, notAfter } = credential;
      const invalid = notAfter.getTime() <= now || notBefore.getTime() > now;
      const expiring = notAfter.getTime() - now < CERTIFICATE_WARN_MS;
      if ((invalid || expiring) && now - (said.get(thumbprint) ?? -Infinity) >= 24 * 3600 * 1000) {
        said.set(thumbprint, now);
        if (invalid)
          logger.error(
            { thumbprint, notBefore, notAfter },
            'teams certificate is not valid now: Entra ID refuses it',
          );
        else
          logger.warn(
            { thumbprint, notBefore, notAfter },
            'teams certificate expires within 14 days: rotate it',
          );
      }
      return credential;
    },
  };
  return { certificate };
}

/**
 * `POST /api/messages` for Microsoft Teams (docs/teams.md), on the app's port beside
 * Slack's routes: Bot Framework token checks, the command use-case (the same queue,
 * budget and read policy as `/rollout-doctor`), cards through the Bot Connector.
 * Approvers' views are decided by the approval policy; presses go to the port's
 * press use-cases (Approve and Undo decided as on Slack, Re-run, status, Dismiss).
 * `cards` remembers what each card shows; in Redis (card-store.ts) every app replica
 * answers refreshes and presses of cards another one posted. `directory` keeps how to
 * reach each person privately and each conversation's service URL (directory.ts), in
 * Redis too, so the replica that delivers a result, or one restarted since the asker
 * wrote, updates the card at the right connector and tells a not-found to the asker in
 * their personal chat. `refresh` keeps the approvers the bot has seen (refresh-list.ts),
 * in Redis as well, so every replica's cards ask the same approvers' clients to fetch
 * their own view.
 */
export function teamsRoute(
  services: AppServices,
  teams: TeamsConfig,
  cards: CardStore,
  directory: TeamsDirectory,
  refresh: RefreshList,
): TeamsRoute {
  const { logger } = services;
  const learned = cachedDirectory(directory);
  const notKept = (what: string) => (error: unknown) =>
    logger.warn({ err: error instanceof Error ? error : new Error(String(error)) }, `${what} not written`);
  const adapter = teamsAdapter({
    connector: botConnector({
      appId: teams.appId,
      ...botCredential(teams, logger),
      tokenUrl: teams.tokenUrl,
      scope: teams.scope,
      serviceUrlHosts: teams.serviceUrlHosts,
    }),
    store: cards,
    tenantId: teams.tenantId,
    serviceUrlOf: async (conversationId) => {
      try {
        return (await learned.serviceUrl(conversationId)) ?? teams.serviceUrl;
      } catch {
        return teams.serviceUrl;
      }
    },
    // The policy's approvers now (Teams ones by Entra object id) that some replica has seen.
    refreshUserIds: async () => {
      try {
        const approvers = (services.policy.approverIds?.() ?? []).filter((id) =>
          isId('teams', 'approver', id),
        );
        return await refresh.userIds(approvers);
      } catch (error) {
        // The card still goes out; approvers then refresh it by hand to get their view.
        logger.warn(
          { err: error instanceof Error ? error : new Error(String(error)) },
          'teams refresh list not read',
        );
        return [];
      }
    },
    personOf: (aadObjectId) => learned.person(aadObjectId),
    untold: untoldLog(logger),
  });
  // Run delivery and outcomes reach Teams messages through this adapter.
  services.chats = { ...services.chats, teams: adapter };
  const useCases: ChatUseCases = {
    command: (request) => runCommand(services, request, TEAMS_COMMAND_WORDS),
    // Approve and Undo decide as on Slack (src/chat/approvals/approve.ts), by Entra object id.
    press: (request) => answerPress(services, request),
    // Posted through the adapter and subscribed to the run: its result replaces it.
    announce: (chat, where, run) => announceRun(services, chat, where, run),
  };
  const mayApprove = async (aadObjectId: string): Promise<boolean> =>
    (await services.policy.approvesSomewhere?.(aadObjectId)) ?? false;
  const endpoint = teamsEndpoint({
    auth: botAuthenticator({
      appId: teams.appId,
      issuer: teams.issuer,
      keys: openIdKeys({ metadataUrl: teams.openIdMetadataUrl }),
      allowedTenants: teams.allowedTenants,
      serviceUrlHosts: teams.serviceUrlHosts,
    }),
    logger,
    readBody: (next) => bodyGate(logger, TEAMS_BODY_LIMITS).handler(next),
    handlers: teamsInbound({
      useCases,
      adapter,
      logger,
      mayApprove: (person) => mayApprove(person.id),
      seen: (account, conversationId, serviceUrl) => {
        learned
          .learnServiceUrl(conversationId.split(';messageid=')[0] ?? conversationId, serviceUrl)
          .catch(notKept('teams directory'));
        if (account.aadObjectId === undefined) return;
        const aad = account.aadObjectId.toLowerCase();
        learned.learnPerson(aad, { teamsUserId: account.id, serviceUrl }).catch(notKept('teams directory'));
        // Approvers' clients refresh the card on sight, on every replica's cards (refresh-list.ts).
        mayApprove(aad)
          .then((approver) => (approver ? refresh.seen(aad, account.id) : undefined))
          .catch(notKept('teams refresh list'));
      },
    }),
  });
  const handler: AppRoute['handler'] = (req, res) => {
    endpoint(req, res)?.catch((error: unknown) => {
      logger.error(
        { err: error instanceof Error ? error : new Error(String(error)) },
        'teams endpoint failed',
      );
      if (!res.headersSent) {
        res.writeHead(500);
        res.end();
      }
    });
  };
  return { route: { path: TEAMS_MESSAGES_PATH, method: 'POST', handler }, adapter };
}
