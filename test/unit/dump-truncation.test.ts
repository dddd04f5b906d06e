/** A dump cut off on its way to disk says the file ends early, and where. */
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { fakeIo } from '../support/cli-io.js';

const FIXTURE = 'test/fixtures/dumps/incident-a-gpu-surge.yaml';
const yaml = readFileSync(FIXTURE, 'utf8');
const lines = yaml.split('\n');
/** The first `lines` lines, as a cut-off copy would hold them. */
const firstLines = (count: number): string => `${lines.slice(0, count).join('\n')}\n`;

describe('a cut-off dump', () => {
  it('a YAML List cut inside an item: ends early, at its last line, inside that item', () => {
    const cut = firstLines(600);
    const itemsBefore = (cut.match(/^ {2}- /gm) ?? []).length;
    expect(() => loadObjects(cut)).toThrow(
      `the dump ends early: its List stops at line 600, inside items[${itemsBefore - 1}]`,
    );
  });

  it('a YAML List cut between items (every item whole) still ends early', () => {
    const end = lines.findIndex((l) => l === 'kind: List');
    expect(() => loadObjects(firstLines(end))).toThrow(/ends early: its List stops at line 1266/);
  });

  it('the whole List, and a multi-document dump whose first document is a List, read as before', () => {
    expect(loadObjects(yaml).length).toBeGreaterThan(0);
    const twice = `${yaml}---\n${yaml}`;
    expect(loadObjects(twice).length).toBe(loadObjects(yaml).length);
  });

  it('JSON cut anywhere: ends early, at its last line', () => {
    const json = JSON.stringify(load(yaml), null, 2);
    const cut = json.slice(0, Math.floor(json.length * 0.4));
    const lineCount = cut.split('\n').length;
    expect(() => loadObjects(cut)).toThrow(`the dump ends early: its JSON stops at line ${lineCount}`);
    expect(() => loadObjects(json.slice(0, json.lastIndexOf('"')))).toThrow(/ends early/);
    expect(loadObjects(json).length).toBe(loadObjects(yaml).length);
  });

  it('diagnose --from-file names the file and exits 2', async () => {
    const run = fakeIo(firstLines(300));
    const code = await runCli(
      ['diagnose', 'vision-object-tracker', '-n', 'vision', '--from-file', '-'],
      run.io,
    );
    expect(run.stderr()).toMatch(
      /^rollout-doctor diagnose: stdin: the dump ends early: its List stops at line 300/,
    );
    expect(code).toBe(2);
  });
});
