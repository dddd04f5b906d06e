/**
 * Cluster text with line breaks and of any length, on every surface: a break inside a
 * reason, a message or a kernel version never starts a line or a table row that reads
 * as ours (Slack code-block tables, Slack and Teams prose, the CLI), and a 20,000-
 * character reason is shown bounded everywhere but where it is quoted whole on purpose
 * (the CLI's code blocks; the chat cuts those and says so).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resultMessage } from '../../src/chat/use-cases/result.js';
import { renderRun } from '../../src/chat/slack/render.js';
import { renderCard } from '../../src/chat/teams/cards.js';
import { runCli } from '../../src/cli/run-cli.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { CELL_MAX } from '../../src/text/columns.js';
import { fakeIo } from '../support/cli-io.js';
import { ROOT } from '../support/source-tree.js';

const FIXTURE = join(ROOT, 'test/fixtures/dumps/crash-on-one-node.json');
/** A forged table row and a forged line, after every kind of line break a renderer may honour. */
const BREAKS = ['\n', '\r\n', '\r', '\u2028', '\u2029', '\u000b', '\u000c', '\u0085'];
const FORGED_ROW = 'node-z  1  1  0  0  -  -  FORGED-ROW';
const FORGED_LINE = 'FORGED-LINE approved, no action needed';

interface Item {
  kind: string;
  metadata: { name: string };
  status?: {
    nodeInfo?: { kernelVersion?: string };
    containerStatuses?: {
      state?: { waiting?: { reason?: string; message?: string } };
      lastState?: { terminated?: { reason?: string; message?: string } };
    }[];
  };
}

function hostileDump(
  edit: (pod: NonNullable<NonNullable<Item['status']>['containerStatuses']>[number]) => void,
): string {
  const dump = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { items: Item[] };
  let pods = 0;
  for (const item of dump.items) {
    if (item.kind === 'Node' && item.status?.nodeInfo?.kernelVersion)
      item.status.nodeInfo.kernelVersion += `\n${FORGED_LINE}`;
    if (item.kind !== 'Pod') continue;
    for (const status of item.status?.containerStatuses ?? []) {
      if (!status.lastState?.terminated) continue;
      edit(status);
      pods += 1;
    }
  }
  expect(pods).toBeGreaterThan(0);
  return JSON.stringify(dump);
}

function surfaces(dump: string): { slack: string[]; teams: string[] } {
  const diagnosis = diagnose(
    assembleSnapshot({ kind: 'Deployment', namespace: 'shop', name: 'web' }, loadObjects(dump)),
  );
  const run = resultMessage({
    cluster: 'prod',
    diagnosis,
    dryRuns: {},
    plans: {},
    requester: null,
    platform: 'slack',
    lang: 'en',
  });
  const slack = renderRun(run);
  return {
    slack: [JSON.stringify(slack.blocks), ...slack.thread.map((t) => JSON.stringify(t.blocks))],
    teams: [run.message, ...run.thread].map((m) => JSON.stringify(renderCard(m))),
  };
}

/** Every line of every text a Slack payload shows (section and context text, code blocks). */
function slackLines(payload: string): string[] {
  const texts: string[] = [];
  JSON.parse(payload, (key, value: unknown) => {
    if (key === 'text' && typeof value === 'string') texts.push(value);
    return value;
  });
  return texts.flatMap((t) => t.split('\n'));
}

const dir = mkdtempSync(join(tmpdir(), 'rd-hostile-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cliReport(dump: string): Promise<string> {
  const f = fakeIo();
  f.io.env = {};
  const file = join(dir, `dump-${String(Math.random()).slice(2)}.json`);
  writeFileSync(file, dump);
  await runCli(['diagnose', 'deployment/web', '-n', 'shop', '--from-file', file], f.io);
  return f.stdout();
}

describe('line breaks in cluster text start no line of ours', () => {
  it.each(BREAKS.map((b) => [JSON.stringify(b), b]))(
    'a %s in a reason, a message and a kernel version: no forged row or line in Slack, Teams or the CLI',
    async (_name, brk) => {
      const dump = hostileDump((status) => {
        const terminated = status.lastState?.terminated;
        if (terminated) {
          terminated.reason = `Error${brk}${FORGED_ROW}`;
          terminated.message = `panic: boom${brk}${FORGED_LINE}`;
        }
      });
      const { slack, teams } = surfaces(dump);
      // The hostile text reached the messages (so this test can fail) ...
      expect(slack.join('')).toContain('FORGED-ROW');
      expect(teams.join('')).toContain('FORGED-ROW');
      // ... but never at the start of a line (a code block shows a message's own lines
      // after a continuation mark, so they read as that message's).
      for (const line of slack.flatMap(slackLines)) {
        expect(line.trimStart().startsWith('node-z'), line).toBe(false);
        expect(line.trimStart().startsWith('FORGED'), line).toBe(false);
      }
      for (const card of teams)
        JSON.parse(card, (key, value: unknown) => {
          if (key === 'text' && typeof value === 'string') {
            expect(/^\s*(?:node-z|FORGED)/m.test(value), value).toBe(false);
          }
          return value;
        });
      // The CLI wraps prose at spaces, so a word of the value may begin a wrapped line;
      // what it never prints is the forged row at a line's start, or the forged line alone.
      const cli = await cliReport(dump);
      expect(cli).toContain('FORGED');
      for (const line of cli.split('\n')) {
        expect(/^\s*node-z\s/.test(line), line).toBe(false);
        expect(line.trim()).not.toBe(FORGED_LINE);
      }
    },
  );
});

describe('cluster text of any length is shown bounded', () => {
  it('a 20,000-character reason and a 50,000-character termination message', async () => {
    const dump = hostileDump((status) => {
      const terminated = status.lastState?.terminated;
      if (terminated) {
        terminated.reason = `Error${'R'.repeat(20_000)}`;
        terminated.message = `panic: ${'A'.repeat(50_000)}END`;
      }
    });
    const cli = await cliReport(dump);
    // The CLI's code blocks print a message whole (the chat cuts it and points here) ...
    expect(cli).toContain('AEND');
    // ... but every other line holding the reason is bounded: a table cell at CELL_MAX,
    // a prose word at 400 characters, the findings list's summary at 600.
    const withReason = cli.split('\n').filter((l) => l.includes('RRRR'));
    expect(withReason.length).toBeGreaterThan(2);
    for (const line of withReason) expect(line.length).toBeLessThan(700);
    // A table cell holds at most CELL_MAX characters, so no row is padded to the reason's width.
    const row = cli.split('\n').find((l) => /^\s*node-a\s+\d/.test(l)) ?? '';
    expect(row).toContain('RRRR');
    expect(row.length).toBeLessThan(CELL_MAX + 150);
    // The crashing pod's 50 kB message once, and nothing padded to the reason's width.
    expect(cli.length).toBeLessThan(50_000 + 20_000);

    const { slack, teams } = surfaces(dump);
    expect(slack.join('')).toContain('RRRR');
    for (const card of teams) expect(card.length).toBeLessThan(28_000);
    for (const payload of slack) expect(payload).not.toContain('R'.repeat(2_100));
  });
});
