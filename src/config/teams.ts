import { z } from 'zod';
import { CertificateError, readCertificateCredential } from './teams-certificate.js';

/**
 * Microsoft Teams settings of the app (docs/configuration.md, "Microsoft Teams").
 * Teams is on when TEAMS_APP_ID is set; then the tenant and exactly one credential are
 * required: the app registration's client secret (TEAMS_APP_PASSWORD) or its
 * certificate and private key (TEAMS_CERTIFICATE_FILE, TEAMS_CERTIFICATE_KEY_FILE), which
 * are read at start to check them. Everything Microsoft-hosted has a default for the public cloud and a
 * variable to point elsewhere (a sovereign cloud, or the Teams stand-in in tests).
 */

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const TEAMS_DEFAULTS = Object.freeze({
  openIdMetadataUrl: 'https://login.botframework.com/v1/.well-known/openidconfiguration',
  issuer: 'https://api.botframework.com',
  /** `{tenant}` is replaced by TEAMS_TENANT_ID. */
  tokenUrl: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token',
  scope: 'https://api.botframework.com/.default',
  serviceUrl: 'https://smba.trafficmanager.net/teams/',
  serviceUrlHosts: ['smba.trafficmanager.net'],
});

const emptyToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());
const httpUrl = z.url({ protocol: /^https?$/ });

const list = (valid: (item: string) => boolean, message: string) =>
  z.preprocess(
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
      .refine((items) => items.every(valid), message),
  );

export const teamsEnvShape = {
  TEAMS_APP_ID: optional(z.string().regex(GUID, 'must be the bot’s Microsoft app id (a GUID)')),
  TEAMS_APP_PASSWORD: optional(z.string().min(1)),
  TEAMS_CERTIFICATE_FILE: optional(z.string().min(1).max(4096)),
  TEAMS_CERTIFICATE_KEY_FILE: optional(z.string().min(1).max(4096)),
  TEAMS_TENANT_ID: optional(z.string().regex(GUID, 'must be an Entra tenant id (a GUID)')),
  TEAMS_ALLOWED_TENANTS: list((t) => GUID.test(t), 'must be comma-separated Entra tenant ids (GUIDs)'),
  TEAMS_OPENID_METADATA_URL: optional(httpUrl),
  TEAMS_TOKEN_ISSUER: optional(z.string().min(1).max(200)),
  TEAMS_TOKEN_URL: optional(httpUrl),
  TEAMS_SERVICE_URL: optional(httpUrl),
  TEAMS_SERVICE_URL_HOSTS: list(
    (h) => /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(:[0-9]{1,5})?$/.test(h),
    'must be comma-separated host names, each with an optional :port',
  ),
  TEAMS_ALERT_CONVERSATION: optional(
    z
      .string()
      .regex(
        /^19:[A-Za-z0-9_.-]{1,200}@thread\.(tacv2|skype)$/,
        'must be a Teams channel id (19:…@thread.tacv2: "Get link to channel"); threads exist only in channels',
      ),
  ),
};

type TeamsEnv = z.infer<z.ZodObject<typeof teamsEnvShape>>;

/** How the bot proves itself to Entra ID for its own token: exactly one of these. */
type TeamsCredential =
  | { readonly kind: 'secret'; readonly appPassword: string }
  | {
      readonly kind: 'certificate';
      /** PEM certificate (TEAMS_CERTIFICATE_FILE). */
      readonly certificateFile: string;
      /** PEM private key (TEAMS_CERTIFICATE_KEY_FILE; the certificate file when unset). */
      readonly keyFile: string;
    };

export interface TeamsConfig {
  readonly appId: string;
  readonly credential: TeamsCredential;
  readonly tenantId: string;
  /** Tenants whose activities are served, lower case; TEAMS_TENANT_ID when not set. */
  readonly allowedTenants: readonly string[];
  readonly openIdMetadataUrl: string;
  readonly issuer: string;
  readonly tokenUrl: string;
  readonly scope: string;
  /** Where proactive messages (alert threads) go. */
  readonly serviceUrl: string;
  /** Hosts (host or host:port) an activity's serviceUrl may name: replies carry the bot's token there. */
  readonly serviceUrlHosts: readonly string[];
  /** The channel conversation alert and early-warning threads are opened in. */
  readonly alertConversation: string | undefined;
}

/** Problems of the Teams settings taken together (each names its variable). */
export function teamsProblems(env: TeamsEnv): string[] {
  if (env.TEAMS_APP_ID === undefined) {
    const stray = Object.keys(teamsEnvShape).filter(
      (name) => name !== 'TEAMS_APP_ID' && (env as Record<string, unknown>)[name] !== undefined,
    );
    const set = stray.filter((name) => {
      const value = (env as Record<string, unknown>)[name];
      return !(Array.isArray(value) && value.length === 0);
    });
    return set.length === 0 ? [] : [`TEAMS_APP_ID is required when ${set.join(', ')} is set`];
  }
  const problems: string[] = [];
  const certificate = env.TEAMS_CERTIFICATE_FILE;
  if (env.TEAMS_APP_PASSWORD === undefined && certificate === undefined)
    problems.push(
      'TEAMS_APP_PASSWORD or TEAMS_CERTIFICATE_FILE is required when TEAMS_APP_ID is set (the bot’s client secret, or its certificate with TEAMS_CERTIFICATE_KEY_FILE)',
    );
  if (env.TEAMS_APP_PASSWORD !== undefined && certificate !== undefined)
    problems.push(
      'TEAMS_APP_PASSWORD and TEAMS_CERTIFICATE_FILE are both set: the bot uses one credential, its client secret or its certificate; unset the other',
    );
  if (certificate === undefined && env.TEAMS_CERTIFICATE_KEY_FILE !== undefined)
    problems.push(
      'TEAMS_CERTIFICATE_FILE is required when TEAMS_CERTIFICATE_KEY_FILE is set (the certificate of that key)',
    );
  if (certificate !== undefined) {
    try {
      readCertificateCredential({
        certificateFile: certificate,
        keyFile: env.TEAMS_CERTIFICATE_KEY_FILE ?? certificate,
      });
    } catch (error) {
      if (!(error instanceof CertificateError)) throw error;
      problems.push(error.message);
    }
  }
  if (env.TEAMS_TENANT_ID === undefined)
    problems.push('TEAMS_TENANT_ID is required when TEAMS_APP_ID is set (the bot’s home tenant)');
  return problems;
}

/** The Teams settings, or undefined when Teams is off. Call after teamsProblems found none. */
export function teamsSettings(env: TeamsEnv): TeamsConfig | undefined {
  if (env.TEAMS_APP_ID === undefined || env.TEAMS_TENANT_ID === undefined) return undefined;
  const credential: TeamsCredential | undefined =
    env.TEAMS_CERTIFICATE_FILE !== undefined
      ? Object.freeze({
          kind: 'certificate',
          certificateFile: env.TEAMS_CERTIFICATE_FILE,
          keyFile: env.TEAMS_CERTIFICATE_KEY_FILE ?? env.TEAMS_CERTIFICATE_FILE,
        })
      : env.TEAMS_APP_PASSWORD !== undefined
        ? Object.freeze({ kind: 'secret', appPassword: env.TEAMS_APP_PASSWORD })
        : undefined;
  if (credential === undefined) return undefined;
  const tenantId = env.TEAMS_TENANT_ID.toLowerCase();
  const allowed = env.TEAMS_ALLOWED_TENANTS.length > 0 ? env.TEAMS_ALLOWED_TENANTS : [tenantId];
  return Object.freeze({
    // As registered: the token's aud is compared exactly.
    appId: env.TEAMS_APP_ID,
    credential,
    tenantId,
    allowedTenants: Object.freeze(allowed.map((t) => t.toLowerCase())),
    openIdMetadataUrl: env.TEAMS_OPENID_METADATA_URL ?? TEAMS_DEFAULTS.openIdMetadataUrl,
    issuer: env.TEAMS_TOKEN_ISSUER ?? TEAMS_DEFAULTS.issuer,
    tokenUrl: (env.TEAMS_TOKEN_URL ?? TEAMS_DEFAULTS.tokenUrl).replace('{tenant}', tenantId),
    scope: TEAMS_DEFAULTS.scope,
    serviceUrl: env.TEAMS_SERVICE_URL ?? TEAMS_DEFAULTS.serviceUrl,
    serviceUrlHosts: Object.freeze(
      env.TEAMS_SERVICE_URL_HOSTS.length > 0
        ? env.TEAMS_SERVICE_URL_HOSTS
        : [...TEAMS_DEFAULTS.serviceUrlHosts],
    ),
    alertConversation: env.TEAMS_ALERT_CONVERSATION,
  });
}
