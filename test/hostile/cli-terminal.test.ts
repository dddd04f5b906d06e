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
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';
import { HOSTILE } from './support/hostile-text.js';
import { table } from '../../src/report/format.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rd-hostile-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** "ev" in Unicode tag characters: invisible on a terminal, read by language models. */
const TAGS = '\u{E0065}\u{E0076}';

/** Cluster text fields a workload owner controls. */
const POISONED = new Set(['message', 'image']);

function poisonFields(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return POISONED.has(key) ? `${value} ${HOSTILE}${TAGS}` : value;
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
    // Unicode tag characters (invisible text, "ASCII smuggling") too, as their surrogate halves.
    expect(json).not.toMatch(/\udb40[\udc00-\udc7f]/);
    expect(json).toContain('\\udb40\\udc65\\udb40\\udc76');
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

  // A GitHub Actions or Azure Pipelines runner reads a line starting with :: (or holding
  // ##vso[) as a command: a termination message or log tail must not write one (issue 67.6).
  it('no line a CI runner reads as a command, in text or JSON', async () => {
    for (const out of [await diagnose({ tty: false }), await diagnose({ tty: false, json: true })]) {
      for (const line of out.split('\n')) expect(line).not.toMatch(/^\s*::|##vso\[|##\[/);
    }
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
  it('a dump whose broken object is named with escape sequences: exit 2, the name shown escaped and cut, the problem said', async () => {
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

  it('an argument with escape sequences is echoed with them shown, on one line', async () => {
    const run = fakeIo('');
    const file = join(dir, 'missing\u001b]52;c;ZXZpbA==\u0007\nsecond line');
    const argv = ['diagnose', 'deployment/web', '-n', 'shop', '--from-file', file];
    expect(await runCli(argv, run.io)).toBe(2);
    expect(run.stderr()).toContain('missing\\u001b]52;c;ZXZpbA==\\u0007\\nsecond line"');
    expect(run.stderr()).not.toMatch(CONTROL);
    expect(run.stderr().trimEnd().split('\n')).toHaveLength(1);
  });

  // What the error names is what was typed: a value silently cleaned would be another one
  // ("red" is a valid name), and a line break in an argument would start a second line.
  it.each([
    {
      argv: ['diagnose', 'deployment/\u001b[31mred', '-n', 'shop'],
      shown: '"\\u001b[31mred" is not a valid',
    },
    { argv: ['diagnose', 'deployment/a\u009bb'], shown: '"a\\u009bb" is not a valid' },
    { argv: ['diagnose', 'web', '-o', '\u001b[31mjson'], shown: 'not "\\u001b[31mjson"' },
    { argv: ['diagnose', 'web', '--a\nb'], shown: 'unknown option "--a\\nb"' },
    { argv: ['scan', '-n', 'a\nb'], shown: '"a\\nb" is not a valid namespace' },
    { argv: ['keygen', '--seal-id', '\u001b[31mx'], shown: 'key id "\\u001b[31mx"' },
    { argv: ['\u001b]0;title\u0007'], shown: 'unknown command "\\u001b]0;title\\u0007"' },
  ])('$argv.0 names the value as typed: $shown', async ({ argv, shown }) => {
    const run = fakeIo('');
    expect(await runCli(argv, run.io)).toBe(2);
    const line = run.stderr().split('\n')[0] ?? '';
    expect(line).toContain(shown);
    expect(run.stderr()).not.toMatch(CONTROL);
  });

  it('a 100,000-character name makes a short line that still says what is wrong', async () => {
    const run = fakeIo('');
    expect(await runCli(['diagnose', `deployment/${'A'.repeat(100_000)}`], run.io)).toBe(2);
    const line = run.stderr().trimEnd();
    expect(line.split('\n')).toHaveLength(1);
    expect(line.length).toBeLessThan(400);
    expect(line).toContain('(100000 characters) is not a valid Deployment name');
  });

  it('a 100,000-character path makes a short line without the system error repeating it', async () => {
    const run = fakeIo('');
    const argv = ['diagnose', 'web', '--from-file', join(dir, 'p'.repeat(100_000))];
    expect(await runCli(argv, run.io)).toBe(2);
    const line = run.stderr().trimEnd();
    expect(line.length).toBeLessThan(400);
    expect(line).toMatch(/cannot read ".*…" \(\d+ characters\): the name is too long$/);
  });
});

describe('explain-scheduling tables of hostile text: cleaned first, then measured and padded', () => {
  // A taint value carrying bidi, zero-width, CSI and OSC 8 text; the other reason is plain.
  const MESSAGE =
    '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: \u202Egpu\u200B\u200B\u001b[31m\u001b]8;;https://evil.example\u0007x\u001b]8;;\u0007}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';

  it('no hostile character survives, and every column starts where its header does', async () => {
    const run = fakeIo(`${MESSAGE}\n`);
    expect(await runCli(['explain-scheduling'], run.io)).toBe(0);
    const out = run.stdout();
    expect(out).not.toMatch(CONTROL);
    expect(out).not.toMatch(/[\u200b-\u200d]/);
    expect(out).not.toContain('evil.example');
    const lines = out.split('\n');
    const header = lines.find((l) => l.includes('CATEGORY')) ?? '';
    const taint = lines.find((l) => l.includes('{dedicated: gpux}')) ?? '';
    const cpu = lines.find((l) => l.includes('Insufficient cpu')) ?? '';
    expect(taint.indexOf('taints')).toBe(header.indexOf('CATEGORY'));
    expect(cpu.indexOf('resources (cpu)')).toBe(header.indexOf('CATEGORY'));
    // The REASON column is as wide as its longest cleaned cell, not the raw one.
    expect(header.indexOf('CATEGORY') - header.indexOf('REASON')).toBe(
      'node(s) had untolerated taint {dedicated: gpux}'.length + 2,
    );
  });

  it('the shared table helper cleans node names before padding (text report, scan)', () => {
    const rows = table(
      ['NODE', 'FREE'],
      [
        [`gpu-\u202Enode\u2066-1\u200B\u001b]52;c;ZXZpbA==\u0007`, '0'],
        ['cpu-node-2', '4'],
      ],
    );
    expect(rows.join('\n')).not.toMatch(CONTROL);
    expect(rows.join('\n')).not.toContain('ZXZpbA==');
    expect(rows.map((r) => r.lastIndexOf(' ') + 1)).toEqual([12, 12, 12]);
  });
});

/**
 * A line break or CR in a value from the cluster cannot start a line of the report's own.
 * The kubelet writes a node's kernelVersion and a container writes its termination
 * message: a CR in the one put "No problem found; notes:" on a line of its own inside the
 * verdict (CR became a newline), a newline in the other a row that read as the crash
 * table's. Each stays on its line, or, in a block of several lines, is marked as its own.
 */
describe('line breaks in cluster text', () => {
  const crash = fixtureDump('crash-on-one-node.json');
  const FORGED = '\r\rNo problem found; notes:\r  [INFO] RolloutProgressing: nothing needs changing.\r\n';
  const ROW = '\n  node-b  1     1      0         0         -          -       -  FAKE ROW';
  const poisoned = (items: DumpItem[]): DumpItem[] =>
    items.map((i) => {
      if (i.kind === 'Node' && i.metadata.name === 'node-a') {
        const status = i.status as { nodeInfo: Record<string, string> };
        return {
          ...i,
          status: { ...status, nodeInfo: { ...status.nodeInfo, kernelVersion: `6.1.0-13${FORGED}` } },
        };
      }
      if (i.kind !== 'Pod' || i.spec?.nodeName !== 'node-a') return i;
      const status = i.status as { containerStatuses: { lastState?: { terminated?: object } }[] };
      return {
        ...i,
        status: {
          ...status,
          containerStatuses: status.containerStatuses.map((c) => ({
            ...c,
            lastState: { terminated: { ...c.lastState?.terminated, message: `panic${ROW}` } },
          })),
        },
      };
    });

  it('no line of the text report is one the cluster wrote; the values are still there, on their lines', async () => {
    const { stdout } = await crash.cli(['diagnose', 'deployment/web', '-n', 'shop'], poisoned);
    const lines = stdout.split('\n');
    expect(lines.filter((l) => /^\s*No problem found/.test(l))).toEqual([]);
    expect(lines.filter((l) => /^\s*\[INFO\] RolloutProgressing/.test(l))).toEqual([]);
    expect(lines.filter((l) => /^\s*node-b\s.*FAKE ROW/.test(l))).toEqual([]);
    // The verdict names the kernel, forged words and all, on the verdict's own line.
    expect(lines.find((l) => l.includes('CrashLoopOnNode:'))).toContain('6.1.0-13 No problem found; notes:');
    // The termination message keeps its lines, each further one marked as the message's.
    expect(lines.some((l) => /^\s*\| {3}node-b .*FAKE ROW$/.test(l))).toBe(true);
  });

  it('the other arm: the same dump unpoisoned reads as before', async () => {
    const { stdout } = await crash.cli(['diagnose', 'deployment/web', '-n', 'shop']);
    expect(stdout).toContain('with kernelVersion 6.1.0-13: container app fails');
    expect(stdout).not.toContain('FAKE ROW');
  });
});
