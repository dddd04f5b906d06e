import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/app/command-parse.js';
import { ConfigError, loadAppConfig, loadWorkerConfig } from '../../src/config.js';

describe('loadAppConfig / loadWorkerConfig', () => {
  it('fills defaults and freezes', () => {
    const c = loadAppConfig({
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
    expect(c.slack.apiUrl).toBe('http://127.0.0.1:9/api/');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('names every missing or malformed variable', () => {
    let error: unknown;
    try {
      loadAppConfig({ SLACK_BOT_TOKEN: 'nope', PORT: 'x', ROLLOUT_DOCTOR_APPROVERS: 'alice' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'PORT', 'ROLLOUT_DOCTOR_APPROVERS'])
      expect(message).toContain(name);
  });

  it('uses Socket Mode with an app token, and the worker needs no Slack variable', () => {
    expect(loadAppConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }).mode).toBe('socket');
    expect(loadWorkerConfig({}).cluster).toBe('default');
    expect(() => loadWorkerConfig({ ROLLOUT_DOCTOR_CLUSTER: 'Bad_Name' })).toThrow(/ROLLOUT_DOCTOR_CLUSTER/);
  });
});

describe('parseCommand', () => {
  const opts = { clusters: ['default', 'prod'], defaultCluster: 'default' };
  it.each([
    ['web', { kind: 'diagnose', namespace: 'default', name: 'web', cluster: 'default' }],
    [
      'deployment/web -n shop --cluster prod',
      { kind: 'diagnose', namespace: 'shop', name: 'web', cluster: 'prod' },
    ],
    [
      'deploy/api.v2 --namespace=shop',
      { kind: 'diagnose', namespace: 'shop', name: 'api.v2', cluster: 'default' },
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
    `${'a'.repeat(254)}`,
  ])('rejects %s', (text) => {
    expect(parseCommand(text, opts).kind).toBe('invalid');
  });
});
