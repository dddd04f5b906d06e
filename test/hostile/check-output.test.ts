/**
 * `check`'s output when the manifests and the cluster carry hostile text (issue 67.6):
 * line breaks that would start a CI workflow command (`::error::`, `##vso[`), terminal
 * escapes, U+2028, bidi overrides and markdown links, in a `# Source:` comment, a pod
 * template's annotation key (a template change's path), an extended resource's name (a
 * finding's summary), an image, and the cluster's own names (a dump's pod).
 * Text output: one line per value, nothing at a line's start a CI runner reads as a
 * command, no control character. SARIF: messages are the tool's words with values
 * quoted and defanged, URIs relative paths. JSON: no raw C1, bidi or line separator.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rd-hostile-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each a way to start a line a CI runner reads, to style a terminal, or to mislead a reader. */
const EVIL = [
  '\n::error::x',
  '\r##vso[task.setvariable variable=x]y',
  '\u001b[31mred\u001b[0m',
  'sep\u2028::warning::y',
  '[x](https://evil.example)',
  '![img](https://evil.example/i.png)',
  '\u202Egnp.exe\u202C\u2066iso\u2069',
  '\u009b31m',
].join('');

/** A `# Source:` path holds no whitespace (helm writes one word): what is left of EVIL in one. */
const SOURCE_WORD = '::error::x##vso[task.setvariable]\u001b[31m[x](https://evil.example)\u202Eexe\u009b';

function manifest(): string {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'vision-object-tracker', namespace: 'vision' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'vision-object-tracker' } },
      template: {
        metadata: { labels: { app: 'vision-object-tracker', [EVIL]: 'x' } },
        spec: {
          containers: [
            {
              name: 'tracker',
              image: `registry.example.com/vision/object-tracker:2.5.0${EVIL}`,
              ports: [{ containerPort: 8080, name: 'http' }],
              resources: {
                limits: { cpu: '2', memory: '4Gi', 'nvidia.com/gpu': '1' },
                requests: { cpu: '1', memory: '2Gi' },
              },
            },
          ],
          nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-1' },
        },
      },
    },
  };
  const file = join(dir, 'chart.yaml');
  writeFileSync(file, `---\n# Source: ${SOURCE_WORD}\n${stringify(deployment)}`);
  return file;
}

/** The dump with a pod of another namespace (so every node's pods count as read), named with EVIL. */
function dump(): string {
  const docs = parseAllDocuments(readFileSync(FIXTURE, 'utf8')).map((d) => d.toJSON() as Json);
  const items = docs.flatMap((d) => (d.items as Json[] | undefined) ?? [d]);
  const neighbour = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `agent${EVIL}`, namespace: `ops${EVIL}` },
    spec: {
      nodeName: 'gpu-node-1',
      containers: [{ name: 'a', image: `agent:1${EVIL}`, resources: { requests: { cpu: '10m' } } }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const file = join(dir, 'dump.json');
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...items, neighbour] }));
  return file;
}

async function check(
  output: 'text' | 'json' | 'sarif',
  options: { tty?: boolean; quota?: boolean; lang?: 'ko' } = {},
): Promise<string> {
  const run = fakeIo('', { stdoutTty: options.tty ?? false });
  const lang = options.lang ? ['--lang', options.lang] : [];
  const status = await runCli(
    ['check', '-f', manifest(), '--from-file', dump(), '-o', output, ...lang],
    run.io,
  );
  expect(run.stderr()).toBe('');
  expect(status).toBe(1);
  return run.stdout();
}

/** A line a CI runner reads as a command: GitHub Actions' `::` at its start, Azure's `##vso[` anywhere. */
const CI_COMMAND = /^\s*::|##vso\[|##\[/im;
const CONTROL =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

describe('check output of hostile manifests and cluster text', () => {
  it('text: one line per value, no CI command at a line start, no control character', async () => {
    for (const tty of [false, true]) {
      const text = await check('text', { tty });
      expect(text).toContain('CAN NEVER FINISH');
      // The hostile label key is there, as one line with its breaks shown.
      expect(text).toContain('metadata.labels.\\n');
      expect(text).toContain('\\r\\u0023#vso[task.setvariable');
      for (const line of text.split('\n')) {
        expect(line).not.toMatch(/^\s*::/);
        expect(line).not.toMatch(/##vso\[|##\[/i);
      }
      expect(text.replace(/\n/g, '')).not.toMatch(CONTROL);
    }
  });

  it('SARIF: messages are our words with values quoted and defanged, still SARIF', async () => {
    const sarif = JSON.parse(await check('sarif')) as Json;
    expect(sarif.version).toBe('2.1.0');
    const results = sarif.runs[0].results as Json[];
    expect(results.map((r) => r.ruleId)).toEqual(['RolloutSurgeDeadlock']);
    for (const result of results) {
      const text = result.message.text as string;
      expect(text).toContain('can never finish');
      expect(text).toContain('(rendered from "');
      expect(text).not.toMatch(CONTROL);
      expect(text).not.toMatch(/\n/);
      // No link or image: every [ ] ( ) ` < > ! of a value comes escaped.
      expect(text).not.toMatch(/(?<!\\)\[/);
      expect(text).not.toContain('](');
      expect(text).not.toMatch(/(?<!\\)[`<>!]/);
      expect(text).not.toMatch(CI_COMMAND);
      expect(text.length).toBeLessThanOrEqual(1100);
      expect(result.properties.fix).toContain('maxSurge: 0');
      const uri = result.locations[0].physicalLocation.artifactLocation.uri as string;
      expect(uri).toMatch(/chart\.yaml$/);
      expect(uri).not.toMatch(/evil|::/);
    }
  });

  it('JSON: the values as they are, with no raw C1, bidi or line separator and no CI command', async () => {
    const raw = await check('json');
    expect(raw).not.toMatch(CONTROL);
    expect(raw).not.toMatch(CI_COMMAND);
    const json = JSON.parse(raw) as Json;
    // Decoded, the data is unchanged: the template path and the changed label as written.
    expect(json.results[0].at.template).toBe(SOURCE_WORD);
    expect(json.results[0].changes).toContain(`metadata.labels.${EVIL}`);
  });

  it('in Korean: the same one line per value in the text, the same quoting and defanging in SARIF', async () => {
    for (const tty of [false, true]) {
      const text = await check('text', { tty, lang: 'ko' });
      expect(text).toContain('롤아웃이 절대 끝나지 않습니다');
      expect(text).toContain('metadata.labels.\\n');
      expect(text).toContain('\\r\\u0023#vso[task.setvariable');
      for (const line of text.split('\n')) {
        expect(line).not.toMatch(/^\s*::/);
        expect(line).not.toMatch(/##vso\[|##\[/i);
      }
      expect(text.replace(/\n/g, '')).not.toMatch(CONTROL);
    }
    const sarif = JSON.parse(await check('sarif', { lang: 'ko' })) as Json;
    const text = sarif.runs[0].results[0].message.text as string;
    expect(text).toContain('롤아웃이 끝나지 않습니다');
    expect(text).toMatch(/ \("[^\n]*" 템플릿에서 렌더링됨\)/);
    expect(text).not.toMatch(CONTROL);
    expect(text).not.toMatch(/\n/);
    expect(text).not.toMatch(/(?<!\\)\[/);
    expect(text).not.toContain('](');
    expect(text).not.toMatch(/(?<!\\)[`<>!]/);
    expect(text).not.toMatch(CI_COMMAND);
  });
});
