/**
 * `check -o sarif` as GitHub code scanning ingests it: valid against the SARIF 2.1.0
 * schema (OASIS, vendored in test/fixtures/sarif), each result on the line a pull request
 * changed, each rule with its description, help and page, a category per cluster, and a
 * valid file with the reason when the run could not judge (exit 2 and 3).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { parseManifests } from '../../src/check/manifests.js';
import type { CheckResult } from '../../src/check/check.js';
import type { CheckReport } from '../../src/check/render.js';
import { automationId, renderSarif, renderSarifFailure, templatePath } from '../../src/check/sarif.js';
import { CHECK_RULES, FINDING_DOCS } from '../../src/check/sarif-rules.js';
import { templateLines } from '../../src/check/template-lines.js';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- SARIF read back

const schema = JSON.parse(readFileSync('test/fixtures/sarif/sarif-schema-2.1.0.json', 'utf8')) as object;
// CommonJS modules: the class and the function are their `default` export.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false });
ajvFormats.default(ajv);
const validate = ajv.compile(schema);

/** The schema, and the rules GitHub adds on ingestion (docs: "SARIF support for code scanning"). */
function expectIngestible(text: string): Json {
  const sarif = JSON.parse(text) as Json;
  const valid = validate(sarif);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  expect(sarif.version).toBe('2.1.0');
  expect(sarif.runs.length).toBeGreaterThan(0);
  expect(sarif.runs.length).toBeLessThanOrEqual(20);
  for (const run of sarif.runs as Json[]) {
    expect(run.tool.driver.name).toBeTruthy();
    expect(run.automationDetails.id).toMatch(/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+\/$/);
    expect(run.results.length).toBeLessThanOrEqual(25_000);
    const rules = run.tool.driver.rules as Json[];
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule.fullDescription.text.length).toBeGreaterThan(20);
      expect(rule.help.markdown).toContain('**Fix:**');
      expect(rule.helpUri.startsWith(`${FINDING_DOCS}/`)).toBe(true);
      // The page it points to is in this repository.
      expect(existsSync(rule.helpUri.replace(`${FINDING_DOCS}/`, 'docs/findings/'))).toBe(true);
    }
    for (const result of run.results as Json[]) {
      expect(rules[result.ruleIndex]?.id).toBe(result.ruleId);
      expect(result.message.text.length).toBeGreaterThan(0);
      const location = result.locations[0].physicalLocation;
      expect(location.artifactLocation.uri).not.toMatch(/^[a-z]+:|^\//);
      expect(Number.isInteger(location.region.startLine) && location.region.startLine >= 1).toBe(true);
      expect(typeof result.partialFingerprints.workload).toBe('string');
    }
  }
  return sarif;
}

const MANIFEST = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: tracker',
  '  namespace: vision',
  'spec:',
  '  replicas: 2',
  '  strategy:',
  '    type: RollingUpdate',
  '  selector: {matchLabels: {app: tracker}}',
  '  template:',
  '    metadata: {labels: {app: tracker}}',
  '    spec:',
  '      containers:',
  '        - name: app',
  '          image: tracker:2',
  '          resources:',
  '            limits:',
  '              nvidia.com/gpu: 1',
  '',
].join('\n');

function result(
  code: CheckResult['findings'][number]['code'],
  extra: Partial<CheckResult> = {},
): CheckResult {
  return {
    target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
    at: { file: 'deploy/tracker.yaml', line: 1, column: 1 },
    rollout: 'template',
    changes: ['spec.containers[0].image'],
    verdict: 'never-finishes',
    findings: [
      {
        code,
        severity: code === 'IncompleteEvidence' ? 'warning' : 'critical',
        summary: `${code} of tracker.`,
        explanation: '',
        evidence: [],
      },
    ],
    ...extra,
  };
}

function report(results: CheckResult[], notes: string[] = []): CheckReport {
  return { source: { mode: 'live', context: 'kind-prod eu/1' }, results, others: 0, notes };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('check SARIF', () => {
  it('is valid SARIF 2.1.0 that GitHub ingests, every code check reports with its own rule', () => {
    const codes = Object.keys(CHECK_RULES) as (keyof typeof CHECK_RULES)[];
    // RolloutProgressing is no code of check's: it still gets a rule of its own, never another's.
    const sarif = expectIngestible(
      renderSarif(
        report([...codes.map((c) => result(c)), result('RolloutProgressing')], ['not read: nodes']),
        {
          version: '1.2.3',
        },
      ),
    );
    const run = sarif.runs[0] as Json;
    expect(run.results.map((r: Json) => r.ruleId)).toEqual([...codes, 'RolloutProgressing']);
    expect(run.tool.driver.rules.map((r: Json) => r.id)).toEqual([...codes, 'RolloutProgressing']);
    expect(run.invocations[0].executionSuccessful).toBe(true);
    expect(run.invocations[0].toolExecutionNotifications[0].message.text).toContain('not read: nodes');
    // One category per cluster, its name kept to safe characters.
    expect(run.automationDetails.id).toBe('rollout-doctor-check/kind-prod_eu_1/');
  });

  it('puts a result on the changed line, the strategy for a new object, else the document', () => {
    const w = parseManifests(MANIFEST, 'deploy/tracker.yaml').workloads[0];
    if (!w) throw new Error('no workload parsed');
    expect(w.locate('spec.template.spec.containers[0].image')).toMatchObject({ line: 16, exact: true });
    // A key with dots, as written.
    expect(w.locate('spec.template.spec.containers[0].resources.limits.nvidia.com/gpu')).toMatchObject({
      line: 19,
      exact: true,
    });
    // A field the manifest does not write: its nearest written parent, not exact.
    expect(w.locate('spec.template.spec.containers[0].resources.requests.cpu')).toMatchObject({
      line: 17,
      exact: false,
    });
    expect(w.locate('spec.template.spec.containers[3].image')).toMatchObject({ line: 14, exact: false });
    const focus = (line: number) => ({ file: 'deploy/tracker.yaml', line, column: 11, path: 'x' });
    const sarif = expectIngestible(
      renderSarif(report([result('RolloutSurgeDeadlock', { focus: focus(16) }), result('Unschedulable')]), {
        version: '1',
      }),
    );
    const lines = (sarif.runs[0].results as Json[]).map(
      (r) => r.locations[0].physicalLocation.region.startLine,
    );
    expect(lines).toEqual([16, 1]);
  });

  it("locates a helm template's result in the chart's template file, where the path is one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sarif-template-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'mychart/templates'), { recursive: true });
    writeFileSync(
      join(dir, 'mychart/templates/deployment.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: app\n          image: "{{ .Values.image }}"\n',
    );
    const lineOf = templateLines(dir);
    const focused = (template: string) =>
      result('RolloutSurgeDeadlock', {
        at: { file: '-', line: 40, column: 1, template },
        focus: { file: '-', line: 52, column: 11, template, path: 'spec.template.spec.containers[0].image' },
      });
    const sarif = expectIngestible(
      renderSarif(
        report([
          focused('mychart/templates/deployment.yaml'),
          focused('mychart/templates/missing.yaml'),
          focused('../outside/deployment.yaml'),
        ]),
        { version: '1', templateLine: lineOf },
      ),
    );
    const where = (sarif.runs[0].results as Json[]).map((r) => ({
      uri: r.locations[0].physicalLocation.artifactLocation.uri,
      line: r.locations[0].physicalLocation.region.startLine,
    }));
    expect(where).toEqual([
      { uri: 'mychart/templates/deployment.yaml', line: 8 },
      { uri: 'mychart/templates/missing.yaml', line: 1 },
      // Not a path inside the repository: the rendered output's line.
      { uri: 'stdin', line: 52 },
    ]);
    expect(templatePath('a/templates/x.yaml')).toBe('a/templates/x.yaml');
    for (const bad of ['/etc/passwd', 'a/../b.yaml', 'x\n::error::y', 'https://evil/x.yaml', 'a//b'])
      expect(templatePath(bad)).toBeUndefined();
  });

  it('a run that could not judge is still valid SARIF with the reason (exit 2 and 3)', async () => {
    for (const exitCode of [2, 3]) {
      const sarif = expectIngestible(
        renderSarifFailure({ version: '1', exitCode, message: 'cannot read x.yaml: no such file or folder' }),
      );
      const invocation = sarif.runs[0].invocations[0] as Json;
      expect(invocation).toMatchObject({ executionSuccessful: false, exitCode });
      expect(invocation.toolExecutionNotifications[0].level).toBe('error');
      expect(sarif.runs[0].results).toEqual([]);
    }
    const run = fakeIo();
    const status = await runCli(['check', '-f', '/nonexistent/manifests.yaml', '-o', 'sarif'], run.io);
    expect(status).toBe(2);
    const sarif = expectIngestible(run.stdout());
    expect(sarif.runs[0].invocations[0].toolExecutionNotifications[0].message.text).toContain('no such file');
    expect(run.stderr()).toContain('no such file');
    // Its category is the cluster's or the dump's the arguments name, as a judged run's would be.
    expect(sarif.runs[0].automationDetails.id).toBe('rollout-doctor-check/unknown/');
    for (const [args, id] of [
      [['--context', 'prod-eu'], 'rollout-doctor-check/prod-eu/'],
      [['--from-file=/tmp/dumps/prod.yaml'], 'rollout-doctor-check/dump-prod.yaml/'],
    ] as const) {
      const named = fakeIo();
      await runCli(['check', '-f', '/nonexistent/manifests.yaml', ...args, '-o', 'sarif'], named.io);
      expect(expectIngestible(named.stdout()).runs[0].automationDetails.id).toBe(id);
    }
    // Not asked for SARIF: nothing on stdout.
    const plain = fakeIo();
    expect(await runCli(['check', '-f', '/nonexistent/manifests.yaml'], plain.io)).toBe(2);
    expect(plain.stdout()).toBe('');
  });

  it('names the category of a dump by its file', () => {
    expect(automationId({ mode: 'dump', file: '/tmp/x/cluster dump.json' })).toBe(
      'rollout-doctor-check/dump-cluster_dump.json/',
    );
  });
});
