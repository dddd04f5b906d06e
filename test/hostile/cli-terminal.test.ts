/**
 * The CLI's text report of a dump whose cluster text carries terminal escapes (OSC 8
 * links, OSC 52 clipboard writes, CSI, 8-bit C1, BEL, backspace, CR) and bidi
 * overrides: nothing of them reaches stdout, on a TTY (our own colours only) or not.
 * JSON output stays raw data: JSON escaping already writes controls as \u escapes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import { HOSTILE } from './support/hostile-text.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rd-hostile-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Cluster text fields a workload owner controls. */
const POISONED = new Set(['message', 'image']);

function poisonFields(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return POISONED.has(key) ? `${value} ${HOSTILE}` : value;
  if (Array.isArray(value)) return value.map((v) => poisonFields(v, key));
  if (value !== null && typeof value === 'object') {
    const o = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poisonFields(v, k)]));
    if (key === 'metadata') o.annotations = { ...(o.annotations as object), note: HOSTILE };
    return o;
  }
  return value;
}

const docs = parseAllDocuments(readFileSync(FIXTURE, 'utf8')).map((d) => poisonFields(d.toJSON()));
const dump = join(dir, 'hostile.json');
writeFileSync(
  dump,
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: docs.flatMap((d) => (d as { items?: unknown[] }).items ?? [d]),
  }),
);

async function diagnose(options: { tty: boolean; json?: boolean }): Promise<string> {
  const run = fakeIo('', { stdoutTty: options.tty });
  await runCli(
    [
      'diagnose',
      'deployment/vision-object-tracker',
      '-n',
      'vision',
      '--from-file',
      dump,
      ...(options.json ? ['-o', 'json'] : []),
    ],
    run.io,
  );
  expect(run.stderr()).toBe('');
  return run.stdout();
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

describe('CLI text report of hostile cluster text', () => {
  it('the hostile text really is in the dump the CLI reads', async () => {
    const json = await diagnose({ tty: false, json: true });
    expect(json).toContain('\\u001b]52;c;ZXZpbA==\\u0007');
    // JSON output keeps the data as it is, with C1 and bidi characters written as \u escapes.
    expect(json).not.toMatch(CONTROL);
    // …and the data is unchanged: parsed back, the hostile text is there byte for byte.
    expect(JSON.stringify(JSON.parse(json))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
  });

  it('not on a TTY: no escape, C1, BEL, backspace, CR or bidi character at all', async () => {
    const text = await diagnose({ tty: false });
    expect(text).toContain('gnp.exe');
    expect(text).not.toMatch(CONTROL);
    expect(text).not.toContain('ZXZpbA==');
    expect(text).not.toContain('8;;https://evil');
  });

  it('on a TTY: only our own colour sequences (SGR) remain', async () => {
    const text = await diagnose({ tty: true });
    // eslint-disable-next-line no-control-regex -- our colours are ESC [ n m
    const ours = text.replace(/\u001b\[(?:1|2|22|31|32|33|36|39|0)m/g, '');
    expect(ours).not.toMatch(CONTROL);
    expect(text).not.toContain('\u001b]');
    expect(text).not.toContain('\u001b[2J');
  });
});

describe('CLI error lines quoting hostile text', () => {
  it('a dump whose broken object is named with escape sequences: exit 2, the name cleaned', async () => {
    const evil = join(dir, 'evil-name.json');
    const name = `x${HOSTILE}`;
    writeFileSync(
      evil,
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: { replicas: -1 },
      }),
    );
    const run = fakeIo('');
    expect(await runCli(['diagnose', 'deployment/web', '-n', 'shop', '--from-file', evil], run.io)).toBe(2);
    expect(run.stderr()).toContain('spec.');
    expect(run.stderr()).not.toMatch(CONTROL);
  });

  it('an argument with escape sequences is echoed cleaned', async () => {
    const run = fakeIo('');
    const argv = ['diagnose', 'deployment/web', '-n', 'shop', '--from-file', join(dir, `missing${HOSTILE}`)];
    expect(await runCli(argv, run.io)).toBe(2);
    expect(run.stderr()).toContain('cannot read');
    expect(run.stderr()).not.toMatch(CONTROL);
  });
});
