/**
 * .github/workflows/*.yml cannot run here, so they are linted with a real linter,
 * action-validator (the dev dependency @action-validator/cli: GitHub's workflow schema
 * and its glob checks), which .ci/run also runs; and the release workflow takes the image
 * name from its one home, image.repository in the chart's values.yaml. Every action is
 * pinned to a commit SHA and every publishing job runs in the protected environment
 * `release` (issue 54.6, test/support/workflow-pins.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { workflowProblems } from '../support/workflow-pins.js';

const run = promisify(execFile);
const WORKFLOWS = '.github/workflows';
const VALIDATOR = 'node_modules/.bin/action-validator';
const dir = mkdtempSync(join(tmpdir(), 'workflows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validate(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(VALIDATOR, [file]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: (e.stdout ?? '') + (e.stderr ?? '') };
  }
}

const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));

describe('GitHub Actions workflows', () => {
  it('there is a release workflow', () => {
    expect(files).toContain('release.yml');
  });

  it.each(files)('%s passes action-validator', async (file) => {
    const result = await validate(join(WORKFLOWS, file));
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it('the linter refuses a broken workflow (it can fail)', async () => {
    const broken = join(dir, 'release.yml');
    writeFileSync(
      broken,
      readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8').replace(/runs-on:/, 'run-on:'),
    );
    const result = await validate(broken);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("Additional property 'run-on' is not allowed");
  });

  it("refuses to release when the chart's image is not where the workflow can push it", async () => {
    const workflow = parse(readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8')) as {
      jobs: { check: { steps: { id?: string; run?: string }[] } };
    };
    const script = workflow.jobs.check.steps.find((s) => s.id === 'version')?.run ?? '';
    const version = (parse(readFileSync('charts/rollout-doctor/Chart.yaml', 'utf8')) as { version: string })
      .version;
    const check = async (owner: string): Promise<{ code: number; output: string }> => {
      const output = join(dir, `output-${owner}`);
      writeFileSync(output, '');
      try {
        const { stdout, stderr } = await run('bash', ['-eo', 'pipefail', '-c', script], {
          env: { ...process.env, TAG: `v${version}`, OWNER: owner, GITHUB_OUTPUT: output },
        });
        return { code: 0, output: stdout + stderr + readFileSync(output, 'utf8') };
      } catch (error) {
        const e = error as { code?: number; stdout?: string; stderr?: string };
        return { code: e.code ?? -1, output: (e.stdout ?? '') + (e.stderr ?? '') };
      }
    };
    const values = parse(readFileSync('charts/rollout-doctor/values.yaml', 'utf8')) as {
      image: { repository: string };
    };
    const owner = /^ghcr\.io\/([^/]+)\//.exec(values.image.repository)?.[1] ?? '';
    const ours = await check(owner.toUpperCase()); // GitHub owners may carry capitals
    expect(ours.output).toContain(`image=${values.image.repository}`);
    expect(ours.code).toBe(0);
    const fork = await check('someone-else');
    expect(fork.code).not.toBe(0);
    expect(fork.output).toContain('a release publishes to ghcr.io/someone-else/');
  });

  it('the release takes the image name from the chart values and signs, attests and publishes', async () => {
    const workflow = readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8');
    const values = parse(readFileSync('charts/rollout-doctor/values.yaml', 'utf8')) as {
      image: { repository: string };
    };
    // The workflow's own extraction, run on the chart's values.
    const { stdout } = await run('sh', [
      '-c',
      "sed -n 's/^  repository: *//p' charts/rollout-doctor/values.yaml | head -1",
    ]);
    expect(stdout.trim()).toBe(values.image.repository);
    expect(workflow).not.toContain(values.image.repository); // named in one place only
    const jobs = (
      parse(workflow) as {
        jobs: Record<string, { steps: { uses?: string; run?: string; with?: Record<string, unknown> }[] }>;
      }
    ).jobs;
    const build = jobs['image']?.steps.find((s) => s.uses?.startsWith('docker/build-push-action'));
    expect(build?.with).toMatchObject({ platforms: 'linux/amd64,linux/arm64', push: true, sbom: true });
    expect(jobs['image']?.steps.some((s) => s.run?.includes('cosign sign --yes "$IMAGE@$DIGEST"'))).toBe(
      true,
    );
    expect(jobs['chart']?.steps.some((s) => s.run?.includes('helm push'))).toBe(true);
    expect(jobs['npm']?.steps.some((s) => s.run?.includes('npm publish --provenance'))).toBe(true);
    expect(jobs['release']?.steps.some((s) => s.run?.includes('--notes-file release-notes.md'))).toBe(true);
  });

  it.each(files)(
    '%s pins every action to a commit SHA and publishes only in a protected environment',
    (file) => {
      expect(workflowProblems(readFileSync(join(WORKFLOWS, file), 'utf8'), ['release'])).toEqual([]);
    },
  );

  it('the pin lint refuses a tag, a short SHA, a missing tag comment and a publishing job without its environment', () => {
    const text = readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8');
    const byTag = text.replace(/docker\/login-action@[0-9a-f]{40} # v[\d.]+/, 'docker/login-action@v3');
    expect(workflowProblems(byTag, ['release'])).toEqual([
      expect.stringContaining('docker/login-action@v3 is not pinned to a full commit SHA'),
    ]);
    const short = text.replace(/(sigstore\/cosign-installer@)([0-9a-f]{7})[0-9a-f]{33}/, '$1$2');
    expect(workflowProblems(short, ['release'])).toHaveLength(1);
    const untagged = text.replace(/(azure\/setup-helm@[0-9a-f]{40}) # v[\d.]+/, '$1');
    expect(workflowProblems(untagged, ['release'])).toEqual([expect.stringContaining('names no tag')]);
    const open = text.replace(/( {2}npm:\n {4}name: npm package\n) {4}environment: release\n/, '$1');
    expect(open).not.toBe(text);
    expect(workflowProblems(open, ['release'])).toEqual([
      'job npm publishes or signs outside a protected environment',
    ]);
    expect(workflowProblems(text, ['staging'])).toHaveLength(4);
  });
});
