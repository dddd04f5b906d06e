/**
 * A bare Teams bot on loopback for tests and benchmarks: the real adapter, Bot
 * Framework token checks, endpoint and inbound handlers from src/chat/teams/, wired to
 * a Teams stand-in and to use-cases the caller supplies (the app wires the same pieces
 * with its services in src/app/teams-route.ts).
 */
import type { ChatUseCases } from '../../src/chat/adapter.js';
import { routeTable, startHttpServer, type HttpServerHandle } from '../../src/app/http-server.js';
import { bodyGate } from '../../src/app/body-gate.js';
import { teamsAdapter, type CardStore, type TeamsAdapter } from '../../src/chat/teams/adapter.js';
import { botAuthenticator } from '../../src/chat/teams/bot-auth.js';
import { botConnector } from '../../src/chat/teams/connector.js';
import { TEAMS_MESSAGES_PATH, teamsEndpoint } from '../../src/chat/teams/endpoint.js';
import { teamsInbound } from '../../src/chat/teams/inbound.js';
import { openIdKeys } from '../../src/chat/teams/openid-keys.js';
import type { Logger } from '../../src/logger.js';
import type { TeamsStandin } from './teams-standin.js';

type InboundOptions = Parameters<typeof teamsInbound>[0];

export interface BareTeamsBot {
  adapter: TeamsAdapter;
  server: HttpServerHandle;
  /** Where the stand-in sends activities. */
  botUrl: string;
}

export async function startBareTeamsBot(options: {
  teams: TeamsStandin;
  /** The stand-in's app password (startTeamsStandin's). */
  appPassword: string;
  store: CardStore;
  useCases: ChatUseCases;
  logger: Logger;
  refreshUserIds: () => string[];
  mayApprove?: InboundOptions['mayApprove'];
  seen?: InboundOptions['seen'];
  keepAliveTimeoutMs?: number;
}): Promise<BareTeamsBot> {
  const { teams, logger } = options;
  const host = new URL(teams.serviceUrl).host;
  const adapter = teamsAdapter({
    connector: botConnector({
      appId: teams.appId,
      appPassword: options.appPassword,
      tokenUrl: teams.tokenUrl.replace('{tenant}', teams.tenantId),
      scope: 'https://api.botframework.com/.default',
      serviceUrlHosts: [host],
    }),
    store: options.store,
    tenantId: teams.tenantId,
    serviceUrlOf: () => teams.serviceUrl,
    refreshUserIds: options.refreshUserIds,
  });
  const endpoint = teamsEndpoint({
    auth: botAuthenticator({
      appId: teams.appId,
      issuer: 'https://api.botframework.com',
      keys: openIdKeys({ metadataUrl: teams.openIdMetadataUrl }),
      allowedTenants: [teams.tenantId],
      serviceUrlHosts: [host],
    }),
    logger,
    readBody: (next) => bodyGate(logger).handler(next),
    handlers: teamsInbound({
      useCases: options.useCases,
      adapter,
      logger,
      mayApprove: options.mayApprove ?? (async () => true),
      seen: options.seen ?? (() => undefined),
    }),
  });
  const server = await startHttpServer({
    routes: routeTable([], { [TEAMS_MESSAGES_PATH]: { POST: endpoint } }),
    logger,
    timeouts: {
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 5_000,
      keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 1_000,
    },
    host: '127.0.0.1',
    port: 0,
  });
  return { adapter, server, botUrl: `${server.url}${TEAMS_MESSAGES_PATH}` };
}
