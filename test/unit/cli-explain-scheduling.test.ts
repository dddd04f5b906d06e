import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const MESSAGE =
  "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling..\n";

describe('rollout-doctor explain-scheduling', () => {
  it('prints the DESIGN.md §3 JSON with -o json', async () => {
    const run = fakeIo(MESSAGE);
    expect(await runCli(['explain-scheduling', '-o', 'json'], run.io)).toBe(0);
    expect(JSON.parse(run.stdout())).toEqual({
      total: 10,
      reasons: [
        {
          count: 1,
          reason: 'Insufficient nvidia.com/gpu',
          category: 'resources',
          resource: 'nvidia.com/gpu',
        },
        { count: 9, reason: "node(s) didn't match Pod's node affinity/selector", category: 'node-selection' },
      ],
      preemption: {
        total: 10,
        reasons: [
          { count: 1, reason: 'No preemption victims found for incoming pod', category: 'other' },
          { count: 9, reason: 'Preemption is not helpful for scheduling', category: 'other' },
        ],
      },
    });
    expect(run.stderr()).toBe('');
  });

  it('prints a table in text mode and accepts the message as arguments', async () => {
    const run = fakeIo();
    expect(await runCli(['explain-scheduling', MESSAGE.trim()], run.io)).toBe(0);
    expect(run.stdout()).toContain('None of the 10 node(s) could take the pod:');
    expect(run.stdout()).toMatch(/1\s+Insufficient nvidia.com\/gpu\s+resources \(nvidia.com\/gpu\)/);
    expect(run.stdout()).toMatch(/9\s+Preemption is not helpful for scheduling/);
  });

  it('reports an empty cluster and a sentence-form preemption', async () => {
    const empty = fakeIo('no nodes available to schedule pods');
    expect(await runCli(['explain-scheduling'], empty.io)).toBe(0);
    expect(empty.stdout()).toContain('no nodes');
    const never = fakeIo(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
    expect(await runCli(['explain-scheduling', '-o', 'json'], never.io)).toBe(0);
    expect(JSON.parse(never.stdout()).preemption).toEqual({
      total: 1,
      reasons: [],
      text: 'not eligible due to preemptionPolicy=Never',
    });
  });

  it.each([
    ['empty input', '', /empty input/],
    ['garbage', 'hello, is the cluster on fire?', /not a FailedScheduling message/],
  ])('exits 2 with a clear message on %s', async (_name, input, message) => {
    const run = fakeIo(input);
    expect(await runCli(['explain-scheduling'], run.io)).toBe(2);
    expect(run.stderr()).toMatch(message);
    expect(run.stderr()).toMatch(/^rollout-doctor explain-scheduling: /);
    expect(run.stdout()).toBe('');
  });

  it('exits 2 on a bad option', async () => {
    const run = fakeIo(MESSAGE);
    expect(await runCli(['explain-scheduling', '-o', 'yaml'], run.io)).toBe(2);
    expect(run.stderr()).toContain('-o must be text or json');
    expect(await runCli(['explain-scheduling', '--bogus'], run.io)).toBe(2);
  });
});
