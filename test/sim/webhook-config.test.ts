/**
 * ValidatingWebhookConfiguration as admissionregistration.k8s.io/v1 serves it in the
 * simulator: discovery and OpenAPI, v1 defaults, validation worded as the API server
 * words it, and the Table kubectl prints. The Warning header recorder that carries the
 * webhooks' warnings (sim/server/warnings.ts).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { warningHeader, warningRecorder } from '../../sim/server/warnings.js';
import { simRequest } from '../support/sim-request.js';
import { deploymentWebhook, webhookConfiguration } from '../support/stub-webhook.js';

const CONFIGS = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
let sim: Simulator;
beforeEach(async () => {
  sim = await startSimulator({
    scenario: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }],
    controllers: false,
  });
});
afterEach(async () => sim.close());

const hook = (over: Record<string, unknown> = {}): Record<string, unknown> =>
  deploymentWebhook({ service: { namespace: 'rollout-doctor', name: 'admission' } }, over);
const config = (...webhooks: Record<string, unknown>[]) =>
  webhookConfiguration('rollout-doctor', ...webhooks);

describe('ValidatingWebhookConfiguration in the simulator', () => {
  it('is discovered, has OpenAPI with a PATCH taking fieldValidation, and is printed with its webhook count', async () => {
    const discovery = await simRequest(sim.url, 'GET', '/apis/admissionregistration.k8s.io/v1');
    expect(discovery.body['resources']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'validatingwebhookconfigurations',
          kind: 'ValidatingWebhookConfiguration',
          namespaced: false,
        }),
      ]),
    );
    const root = (await simRequest(sim.url, 'GET', '/openapi/v3')).body as { paths: Record<string, unknown> };
    expect(Object.keys(root.paths)).toContain('apis/admissionregistration.k8s.io/v1');
    const doc = (await simRequest(sim.url, 'GET', '/openapi/v3/apis/admissionregistration.k8s.io/v1'))
      .body as {
      paths: Record<
        string,
        { patch?: { parameters?: { name: string }[]; 'x-kubernetes-group-version-kind'?: unknown } }
      >;
    };
    const patch =
      doc.paths['/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/{name}']?.patch;
    expect(patch?.['x-kubernetes-group-version-kind']).toEqual({
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      kind: 'ValidatingWebhookConfiguration',
    });
    expect(patch?.parameters?.map((p) => p.name)).toContain('fieldValidation');

    expect(
      (await simRequest(sim.url, 'POST', CONFIGS, config(hook(), hook({ name: 'two.rollout-doctor.io' }))))
        .status,
    ).toBe(201);
    const table = await new Promise<string>((resolve) => {
      void fetch(`${sim.url}${CONFIGS}`, {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }).then(async (r) => resolve(await r.text()));
    });
    const parsed = JSON.parse(table) as {
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[] }[];
    };
    expect(parsed.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Webhooks', 'Age']);
    expect(parsed.rows[0]?.cells.slice(0, 2)).toEqual(['rollout-doctor', 2]);
  });

  it('fills the v1 defaults', async () => {
    const created = await simRequest(sim.url, 'POST', CONFIGS, config(hook()));
    expect(created.status).toBe(201);
    expect((created.body['webhooks'] as unknown[])[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      rules: [{ scope: '*' }],
      clientConfig: { service: { port: 443 } },
    });
  });

  it('refuses what the API server refuses, in its words', async () => {
    const bad = config(
      hook({ name: 'check', sideEffects: undefined, timeoutSeconds: 31, admissionReviewVersions: [] }),
      hook({ clientConfig: { url: 'http://127.0.0.1:8443/validate?x=1' }, failurePolicy: 'Sometimes' }),
      hook({
        name: 'check',
        rules: [{ operations: [], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['*/*', 'pods'] }],
        sideEffects: 'Some',
      }),
    );
    const refused = await simRequest(sim.url, 'POST', CONFIGS, bad);
    expect(refused.status).toBe(422);
    const message = String(refused.body['message']);
    expect(message).toMatch(
      /^ValidatingWebhookConfiguration\.admissionregistration\.k8s\.io "rollout-doctor" is invalid: \[/,
    );
    for (const part of [
      'webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots',
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
      `webhooks[1].failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"`,
      `webhooks[1].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      'webhooks[1].clientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
      'webhooks[2].rules[0].operations: Required value',
      `webhooks[2].rules[0].resources: Invalid value: ["*/*","pods"]: if '*/*' is present, must not specify other resources`,
      'webhooks[2].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[2].name: Duplicate value: "check"',
    ])
      expect(message).toContain(part);
    const both = await simRequest(sim.url, 'POST', CONFIGS, config(hook({ clientConfig: {} })));
    expect(both.body['message']).toContain(
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    );
  });
});

describe('unknown fields of a ValidatingWebhookConfiguration', () => {
  const typo = () => config(hook({ failurPolicy: 'Ignore' }));

  it('refuses them under fieldValidation=Strict, warns and drops them by default, drops them under Ignore', async () => {
    const strict = await simRequest(sim.url, 'POST', `${CONFIGS}?fieldValidation=Strict`, typo());
    expect([strict.status, strict.body['reason'], strict.body['message']]).toEqual([
      400,
      'BadRequest',
      'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: strict decoding error: unknown field "webhooks[0].failurPolicy"',
    ]);
    const warned = await simRequest(sim.url, 'POST', CONFIGS, typo());
    expect(warned.status).toBe(201);
    expect(warned.warnings).toEqual(['299 - "unknown field \\"webhooks[0].failurPolicy\\""']);
    const stored = sim.get('ValidatingWebhookConfiguration', undefined, 'rollout-doctor') as {
      webhooks: Record<string, unknown>[];
    };
    expect(stored.webhooks[0]?.['failurPolicy']).toBeUndefined();
    expect(stored.webhooks[0]?.['failurePolicy']).toBe('Fail');
    const patch = { webhooks: [{ name: 'check.rollout-doctor.io', timeoutSecond: 3 }] };
    const ignored = await simRequest(
      sim.url,
      'PATCH',
      `${CONFIGS}/rollout-doctor?fieldValidation=Ignore`,
      patch,
      'application/strategic-merge-patch+json',
    );
    expect([ignored.status, ignored.warnings]).toEqual([200, []]);
    expect(
      JSON.stringify(sim.get('ValidatingWebhookConfiguration', undefined, 'rollout-doctor')),
    ).not.toContain('timeoutSecond"');
    const strictPatch = await simRequest(
      sim.url,
      'PATCH',
      `${CONFIGS}/rollout-doctor?fieldValidation=Strict`,
      patch,
      'application/merge-patch+json',
    );
    expect([strictPatch.status, strictPatch.body['message']]).toEqual([
      400,
      'strict decoding error: unknown field "webhooks[0].timeoutSecond"',
    ]);
  });

  it('refuses them on server-side apply whatever fieldValidation says, and an unknown fieldValidation', async () => {
    const apply = await simRequest(
      sim.url,
      'PATCH',
      `${CONFIGS}/rollout-doctor?fieldManager=helm&fieldValidation=Ignore`,
      typo(),
      'application/apply-patch+yaml',
    );
    expect([apply.status, apply.body['message']]).toEqual([
      400,
      'failed to create typed patch object (/rollout-doctor; admissionregistration.k8s.io/v1, Kind=ValidatingWebhookConfiguration): .webhooks[0].failurPolicy: field not declared in schema',
    ]);
    const bad = await simRequest(sim.url, 'POST', `${CONFIGS}?fieldValidation=Loose`, config(hook()));
    expect([bad.status, bad.body['message']]).toEqual([
      400,
      'fieldValidation parameter unsupported: Loose. Valid values are: Ignore, Warn, Strict',
    ]);
  });
});

describe('the Warning header recorder', () => {
  function fakeResponse(): ServerResponse & { sent: () => string[] } {
    let value: string[] = [];
    return {
      headersSent: false,
      setHeader: (_: string, v: string[]) => (value = v),
      removeHeader: () => (value = []),
      sent: () => value.map((v) => Buffer.from(v, 'latin1').toString('utf8')),
    } as unknown as ServerResponse & { sent: () => string[] };
  }

  it('escapes quotes and backslashes, keeps UTF-8, drops empty, repeated and control-character texts', () => {
    expect(warningHeader('say "hi" \\ ünïcødé')).toBe('299 - "say \\"hi\\" \\\\ ünïcødé"');
    const res = fakeResponse();
    const recorder = warningRecorder(res);
    for (const text of ['one', '', 'one', 'two\nlines', 'bell\u0007', 'ünï']) recorder.add(text);
    expect(res.sent()).toEqual(['299 - "one"', '299 - "ünï"']);
  });

  it('cuts every warning to 256 characters once they pass 4096 in all, then drops the rest', () => {
    const res = fakeResponse();
    const recorder = warningRecorder(res);
    const long = (c: string): string => c.repeat(1500);
    for (const c of ['a', 'b']) recorder.add(long(c));
    expect(res.sent().map((h) => h.length)).toEqual([1508, 1508]);
    recorder.add(long('c'));
    expect(res.sent().map((h) => h.length)).toEqual([264, 264, 264]);
    for (let i = 0; i < 20; i += 1) recorder.add(long(String.fromCharCode(100 + i)));
    expect(res.sent()).toHaveLength(16);
    expect(recorder.written.reduce((n, t) => n + t.length, 0)).toBeLessThanOrEqual(4096);
  });
});
