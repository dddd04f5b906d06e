import { describe, expect, it } from 'vitest';
import { parseCommand, usage } from '../../src/chat/use-cases/command-parse.js';
import { toMrkdwn } from '../../src/chat/slack/render.js';
import { ConfigError } from '../../src/config/environment.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { keyPairProblems } from '../../src/trust/keygen.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';

/** The usage as Slack shows it. */
const USAGE = toMrkdwn(usage('/rollout-doctor'));

describe('loadAppConfig / loadWorkerConfig', () => {
  describe('plan keys', () => {
    const app = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
    const problems = (load: () => unknown): string[] => {
      try {
        load();
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };

    it('refuse to start without their keys, saying how to make them', () => {
      expect(problems(() => loadAppConfig(app))).toEqual([
        expect.stringMatching(/^ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY is required.*rollout-doctor keygen/),
        expect.stringMatching(/^ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS is required.*rollout-doctor keygen/),
      ]);
      expect(problems(() => loadWorkerConfig({})).sort()).toEqual([
        expect.stringMatching(/^ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS is required/),
        expect.stringMatching(/^ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY is required/),
        expect.stringMatching(/^ROLLOUT_DOCTOR_PLAN_SEAL_KEY is required/),
      ]);
    });

    it("refuse the other side's secret: the app never holds the seal key or the notify signing key, a worker never the approval signing key", () => {
      expect(problems(() => loadAppConfig({ ...app, ...testKeys.env }))).toEqual([
        'ROLLOUT_DOCTOR_PLAN_SEAL_KEY must not be set for the app: only workers hold it',
        'ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY must not be set for the app: only workers hold it',
      ]);
      expect(problems(() => loadWorkerConfig(testKeys.env))).toEqual([
        'ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY must not be set for the worker: only the app holds it',
      ]);
    });

    it('keep the Git token on the workers: the app refuses it, a worker reads where it is and the API (Propose in Git)', () => {
      expect(
        problems(() =>
          loadAppConfig({
            ...app,
            ...testKeys.appEnv,
            ROLLOUT_DOCTOR_GIT_TOKEN: 'ghp_x',
            ROLLOUT_DOCTOR_GIT_TOKEN_FILE: '/t',
          }),
        ),
      ).toEqual([
        'ROLLOUT_DOCTOR_GIT_TOKEN must not be set for the app: only workers hold it',
        'ROLLOUT_DOCTOR_GIT_TOKEN_FILE must not be set for the app: only workers hold it',
      ]);
      expect(loadWorkerConfig(testKeys.workerEnv).git).toEqual({ githubApi: 'https://api.github.com' });
      expect(
        loadWorkerConfig({
          ...testKeys.workerEnv,
          ROLLOUT_DOCTOR_GIT_TOKEN_FILE: '/var/run/git/token',
          ROLLOUT_DOCTOR_GITHUB_API: 'https://git.example/api/v3',
        }).git,
      ).toEqual({ tokenFile: '/var/run/git/token', githubApi: 'https://git.example/api/v3' });
      expect(
        problems(() => loadWorkerConfig({ ...testKeys.workerEnv, ROLLOUT_DOCTOR_GITHUB_API: 'file:///etc' })),
      ).toEqual([expect.stringMatching(/^ROLLOUT_DOCTOR_GITHUB_API/)]);
    });

    it('refuse malformed keys without repeating them', () => {
      const secret = Buffer.alloc(40, 7).toString('base64');
      const bad = problems(() =>
        loadWorkerConfig({
          ROLLOUT_DOCTOR_PLAN_SEAL_KEY: `s1:${secret.slice(0, 20)}`,
          ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: `a1:${secret}`,
          ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY: `n1:${secret}`,
        }),
      );
      expect(bad).toHaveLength(3);
      expect(bad.join('\n')).not.toContain(secret.slice(0, 20));
      expect(
        problems(() =>
          loadAppConfig({
            ...app,
            ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: 'no-id-here',
            ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS: 'n1:not-a-key',
          }),
        ),
      ).toEqual([
        expect.stringMatching(/^ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY is not a valid key/),
        expect.stringMatching(/^ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS is not a valid key/),
      ]);
    });

    it('refuse a key of the wrong kind in a key setting: a signing key as a public key (DER or PEM), a public key as a signing key, either as the seal secret', () => {
      const { env } = testKeys;
      const pem = (signing: string): string => {
        const [id = '', der = ''] = signing.split(':');
        const body = der.match(/.{1,64}/g)?.join('\n') ?? '';
        return `${id}:-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
      };
      const worker = (over: Record<string, string>) =>
        problems(() => loadWorkerConfig({ ...testKeys.workerEnv, ...over }));
      // The app's approval signing key where the worker takes its public half: the worker would hold it.
      for (const given of [
        env.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY,
        pem(env.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY),
      ])
        expect(worker({ ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: given })).toEqual([
          'ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS is not a valid key (a signing (private) key was given where its public half belongs): generate keys with `rollout-doctor keygen` (docs/operations.md)',
        ]);
      expect(
        problems(() =>
          loadAppConfig({
            ...app,
            ...testKeys.appEnv,
            ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS: pem(env.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY),
          }),
        ),
      ).toEqual([
        expect.stringMatching(
          /^ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS is not a valid key \(a signing \(private\) key/,
        ),
      ]);
      expect(worker({ ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY: env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS })).toEqual([
        expect.stringMatching(
          /^ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY is not a valid key \(a public key was given/,
        ),
      ]);
      // A public key is no secret, and the app can derive the approval public key.
      for (const given of [env.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS, env.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY])
        expect(worker({ ROLLOUT_DOCTOR_PLAN_SEAL_KEY: given })).toEqual([
          expect.stringMatching(
            /^ROLLOUT_DOCTOR_PLAN_SEAL_KEY is not a valid key \(seal key "[^"]+" is an Ed25519 key, not a random secret\)/,
          ),
        ]);
    });

    it('parse what keygen prints', () => {
      const appConfig = loadAppConfig({ ...app, ...testKeys.appEnv });
      expect(appConfig.approvalSigningKey.keyId).toBe('a1');
      expect([...appConfig.notifyPublicKeys.keys()]).toEqual(['a1-notify']);
      const worker = loadWorkerConfig(testKeys.workerEnv);
      expect(worker.planSealKeys.current.id).toBe('s1');
      expect([...worker.approvalPublicKeys.keys()]).toEqual(['a1']);
      expect(worker.notifySigningKey.keyId).toBe('a1-notify');
      expect(keyPairProblems(appConfig, worker)).toEqual([]);
    });

    it('refuse the approval and notify keys swapped, where one process can tell', () => {
      const { env } = testKeys;
      expect(
        problems(() =>
          loadAppConfig({
            ...app,
            ...testKeys.appEnv,
            ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS: env.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS,
          }),
        ),
      ).toEqual([
        expect.stringMatching(
          /^ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS holds the public half of ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY/,
        ),
      ]);
      expect(
        problems(() =>
          loadWorkerConfig({
            ...testKeys.workerEnv,
            ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS,
          }),
        ),
      ).toEqual([
        expect.stringMatching(
          /^ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS holds the public half of ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY/,
        ),
      ]);
    });

    it('tell an app and a worker whose keys do not fit together, where both are known', () => {
      const other = ephemeralPlanKeys({ seal: 's2', approval: 'a2' });
      const appConfig = loadAppConfig({ ...app, ...testKeys.appEnv });
      const stranger = loadWorkerConfig(other.workerEnv);
      expect(keyPairProblems(appConfig, stranger)).toEqual([
        expect.stringContaining('every approval would be refused'),
        expect.stringContaining('every result would be refused'),
      ]);
    });
  });

  it('fills defaults and freezes', () => {
    const c = loadAppConfig({
      ...testKeys.appEnv,
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 's',
      SLACK_API_URL: 'http://127.0.0.1:9/api',
    });
    expect(c).toMatchObject({
      mode: 'http',
      port: 3000,
      redisUrl: 'redis://127.0.0.1:6379',
      defaultCluster: 'default',
      clusters: ['default'],
      planTtlSeconds: 900,
    });
    expect(c.slack?.apiUrl).toBe('http://127.0.0.1:9/api/');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('names every missing or malformed variable', () => {
    let error: unknown;
    try {
      loadAppConfig({
        ...testKeys.appEnv,
        SLACK_BOT_TOKEN: 'nope',
        PORT: 'x',
        ROLLOUT_DOCTOR_APPROVERS: 'alice',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'PORT', 'ROLLOUT_DOCTOR_APPROVERS'])
      expect(message).toContain(name);
  });

  it('uses Socket Mode with an app token, and the worker needs no Slack variable', () => {
    expect(
      loadAppConfig({
        ...testKeys.appEnv,
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_APP_TOKEN: 'xapp-1',
      }).mode,
    ).toBe('socket');
    expect(
      loadWorkerConfig({
        ...testKeys.workerEnv,
      }).cluster,
    ).toBe('default');
    expect(() =>
      loadWorkerConfig({
        ...testKeys.workerEnv,
        ROLLOUT_DOCTOR_CLUSTER: 'Bad_Name',
      }),
    ).toThrow(/ROLLOUT_DOCTOR_CLUSTER/);
  });
});

describe('parseCommand', () => {
  const opts = { clusters: ['default', 'prod'], defaultCluster: 'default' };
  it.each([
    [
      'web',
      { kind: 'diagnose', workload: 'Deployment', namespace: 'default', name: 'web', cluster: 'default' },
    ],
    [
      'deployment/web -n shop --cluster prod',
      { kind: 'diagnose', workload: 'Deployment', namespace: 'shop', name: 'web', cluster: 'prod' },
    ],
    [
      'deploy/api.v2 --namespace=shop',
      { kind: 'diagnose', workload: 'Deployment', namespace: 'shop', name: 'api.v2', cluster: 'default' },
    ],
    [
      'diagnose deployment/web -n shop',
      { kind: 'diagnose', workload: 'Deployment', namespace: 'shop', name: 'web', cluster: 'default' },
    ],
    [
      'diagnose web',
      { kind: 'diagnose', workload: 'Deployment', namespace: 'default', name: 'web', cluster: 'default' },
    ],
    [
      'diagnose',
      {
        kind: 'diagnose',
        workload: 'Deployment',
        namespace: 'default',
        name: 'diagnose',
        cluster: 'default',
      },
    ],
    ['scan -n shop', { kind: 'scan', namespace: 'shop', cluster: 'default' }],
    ['scan', { kind: 'scan', namespace: undefined, cluster: 'default' }],
    ['', { kind: 'help' }],
    ['help', { kind: 'help' }],
  ])('%s', (text, expected) => {
    expect(parseCommand(text, opts)).toEqual(expected);
  });
  it.each([
    'Web',
    'web -n',
    'web -n Shop',
    'web --cluster staging',
    'pod/web',
    'web api',
    'web --force',
    'scan extra',
    'diagnose web api',
    `${'a'.repeat(254)}`,
  ])('rejects %s', (text) => {
    expect(parseCommand(text, opts).kind).toBe('invalid');
  });

  it('the usage says what the parser does without -n: default for a workload, every namespace for scan', () => {
    expect(parseCommand('web', opts)).toMatchObject({ namespace: 'default' });
    expect(parseCommand('ds/agent', opts)).toMatchObject({ namespace: 'default', workload: 'DaemonSet' });
    expect(parseCommand('scan', opts)).toMatchObject({ namespace: undefined });
    expect(USAGE).toContain('NAMESPACE defaults to `default`');
    expect(USAGE).toContain('`scan` without `-n` scans every namespace');
  });
});
