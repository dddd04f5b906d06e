/**
 * A dump from test/fixtures/dumps diagnosed through the command line (runCli with a
 * fake io), as it is or as a copy whose items a test edited: one helper for the tests
 * that hold an engine verdict against both arms of a hand-made cluster state.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from './cli-io.js';

/** One object of a dump, loosely: what the tests' edits read and replace. */
export interface DumpItem {
  kind: string;
  metadata: { name?: string; namespace?: string; [field: string]: unknown };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [field: string]: unknown;
}

export type DumpEdit = (items: DumpItem[]) => DumpItem[];

/** The fixture `name`; its edited copies are written to a directory removed after the file's tests. */
export function fixtureDump(name: string) {
  const source = join(import.meta.dirname, '../fixtures/dumps', name);
  const dir = mkdtempSync(join(tmpdir(), 'rd-dump-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let copies = 0;
  const file = (edit?: DumpEdit): string => {
    if (!edit) return source;
    const dump = JSON.parse(readFileSync(source, 'utf8')) as { items: DumpItem[] };
    copies += 1;
    const path = join(dir, `copy-${copies}.json`);
    writeFileSync(path, JSON.stringify({ ...dump, items: edit(dump.items) }));
    return path;
  };
  return {
    file,
    /** `args` (a command and its options) run with `--from-file` the dump or its edited copy. */
    async cli(args: readonly string[], edit?: DumpEdit): Promise<{ status: number; stdout: string }> {
      const io = fakeIo();
      const status = await runCli([...args, '--from-file', file(edit)], io.io);
      return { status, stdout: io.stdout() };
    },
  };
}
