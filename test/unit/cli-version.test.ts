import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { packageVersion } from '../../src/cli/version.js';
import { fakeIo } from '../support/cli-io.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('rollout-doctor --version', () => {
  it.each([['--version'], ['-V'], ['version']])('%s prints the version of package.json', async (flag) => {
    const run = fakeIo();
    expect(await runCli([flag], run.io)).toBe(0);
    expect(run.stdout()).toBe(`${version}\n`);
    expect(run.stderr()).toBe('');
  });

  it('the usage mentions it', async () => {
    const run = fakeIo();
    expect(await runCli(['--help'], run.io)).toBe(0);
    expect(run.stdout()).toContain('rollout-doctor --version');
  });

  describe('finds package.json from any build layout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-version-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('walks up past unrelated package.json files (a build under node_modules/.cache) to its own', () => {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'rollout-doctor', version: '9.8.7' }));
      const build = join(dir, 'node_modules', '.cache', 'ci', 'src', 'cli');
      mkdirSync(build, { recursive: true });
      writeFileSync(
        join(dir, 'node_modules', '.cache', 'ci', 'package.json'),
        '{ "name": "other", "version": "1.0.0", "type": "module" }\n',
      );
      writeFileSync(join(dir, 'node_modules', 'package.json'), 'not json');
      expect(packageVersion(pathToFileURL(join(build, 'version.js')).href)).toBe('9.8.7');
    });

    it('says so when there is none', () => {
      expect(() => packageVersion(pathToFileURL(join(tmpdir(), 'nowhere', 'version.js')).href)).toThrow(
        /no package.json of rollout-doctor/,
      );
    });
  });
});
