import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const MESSAGE =
  "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling..\n";

describe('rollout-doctor explain-scheduling', () => {
  it('prints the DESIGN.md §3 JSON with -o json', async () => {
    const run = fakeIo(MESSAGE);
    expect(await runCli(['explain-scheduling', '-o', 'json'], run.io)).toBe(0);
    const { changes, changeNotes, ...shape } = JSON.parse(run.stdout()) as Record<string, unknown>;
    expect(changes).toEqual([
      {
        count: 1,
        reason: 'Insufficient nvidia.com/gpu',
        category: 'resources',
        change: '1 node lacks nvidia.com/gpu: free one there or add a node with nvidia.com/gpu',
      },
      {
        count: 9,
        reason: "node(s) didn't match Pod's node affinity/selector",
        category: 'node-selection',
        change:
          "9 nodes fail the pod's node selector or node affinity: relax the selector, or label a node to match",
      },
    ]);
    expect(changeNotes).toEqual([
      'The counts add up to the 10 nodes, so each node fails for one reason only: fixing a reason opens the nodes it counts.',
      expect.stringMatching(/^Preemption found no lower-priority pod to evict on 1 node: .*surge deadlock/),
    ]);
    expect(shape).toEqual({
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

  it.each([
    ['nodes counted but no reason', '0/3 nodes are available: ', /followed by no reason/],
    [
      'a reason on more nodes than there are',
      '0/3 nodes are available: 5 Insufficient cpu.',
      /5 nodes for "Insufficient cpu" but only 3/,
    ],
  ])('refuses %s with exit 2', async (_name, message, error) => {
    const run = fakeIo(message);
    expect(await runCli(['explain-scheduling'], run.io)).toBe(2);
    expect(run.stderr()).toMatch(error);
    expect(run.stdout()).toBe('');
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

  it('says what would change the outcome, reason by reason, in text mode', async () => {
    const run = fakeIo(MESSAGE);
    expect(await runCli(['explain-scheduling'], run.io)).toBe(0);
    const out = run.stdout();
    expect(out).toContain('What would change the outcome:');
    expect(out).toContain('- 1 node lacks nvidia.com/gpu: free one there or add a node with nvidia.com/gpu');
    expect(out).toMatch(/- 9 nodes fail the pod's node selector or node affinity: relax the selector/);
    expect(out).not.toContain('Message 1');
  });

  it("speaks the reader's language in text (--lang, else LANG) and keeps JSON in English", async () => {
    const ko = fakeIo(`${MESSAGE.trim()}\n${MESSAGE.trim()}\n`);
    expect(await runCli(['explain-scheduling', '--lang', 'ko'], ko.io)).toBe(0);
    const out = ko.stdout();
    expect(out).toContain('메시지 1개 중 1번째(1, 2번째 줄: 같은 메시지 2번):');
    expect(out).toContain('노드 10개 중 어느 노드도 파드를 받을 수 없었습니다:');
    expect(out).toMatch(/노드 수 +이유 +분류/);
    expect(out).toContain('결과를 바꾸는 방법:');
    expect(out).toContain('- 노드 1개에 남은 nvidia.com/gpu 자원이 없습니다');
    expect(out).not.toMatch(/What would change|None of the|lacks|Preemption found/);
    // The scheduler's words stay as it wrote them.
    expect(out).toContain("node(s) didn't match Pod's node affinity/selector");

    const shell = fakeIo(MESSAGE);
    shell.io.env = { LANG: 'ko_KR.UTF-8' };
    expect(await runCli(['explain-scheduling'], shell.io)).toBe(0);
    expect(shell.stdout()).toContain('결과를 바꾸는 방법:');

    const json = fakeIo(MESSAGE);
    expect(await runCli(['explain-scheduling', '-o', 'json', '--lang', 'ko'], json.io)).toBe(0);
    const parsed = JSON.parse(json.stdout()) as { changes: { change: string }[]; changeNotes: string[] };
    expect(parsed.changes[0]?.change).toBe(
      '1 node lacks nvidia.com/gpu: free one there or add a node with nvidia.com/gpu',
    );
    expect(parsed.changeNotes.join(' ')).not.toMatch(/[가-힣]/);
  });

  const TAINTED =
    '0/5 nodes are available: 2 node(s) had untolerated taint {dedicated: infra}, 3 node(s) were unschedulable. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.';
  const PORTS =
    "0/4 nodes are available: 2 Insufficient cpu, 3 node(s) didn't have free ports for the requested pod ports, 1 node(s) had volume node affinity conflict.";

  it('reads several messages, one per line, and prints a JSON array in input order', async () => {
    const run = fakeIo(`${MESSAGE.trim()}\n${TAINTED}\n${PORTS}\n`);
    expect(await runCli(['explain-scheduling', '-o', 'json'], run.io)).toBe(0);
    const all = JSON.parse(run.stdout()) as {
      total: number;
      reasons: unknown[];
      changes: { change: string }[];
    }[];
    expect(all.map((m) => m.total)).toEqual([10, 5, 4]);
    expect(all[1]?.changes.map((c) => c.change)).toEqual([
      '2 nodes have the taint dedicated=infra the pod does not tolerate: add a toleration for it, or remove the taint',
      '3 nodes are cordoned: uncordon one (kubectl uncordon NODE) if it is healthy',
    ]);
    expect(all[2]?.changes.map((c) => c.change)).toEqual([
      "2 nodes lack cpu: free some there, lower the pod's request, or add a node",
      "3 nodes already use the pod's hostPort: stop what holds it there (an old pod of the same Deployment: roll with maxSurge 0) or drop the hostPort",
      "1 node is outside the zone or node the pod's volume is pinned to: run where the volume is, or move the data",
    ]);
  });

  it('reads messages separated by blank lines, joining a message wrapped over several lines', async () => {
    // A terminal paste: the first message wrapped, its preemption part on a line of its own.
    const wrapped = [
      '0/10 nodes are available: 1 Insufficient nvidia.com/gpu,',
      "  9 node(s) didn't match Pod's node affinity/selector.",
      'preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod,',
      '9 Preemption is not helpful for scheduling..',
      '',
      '',
      TAINTED,
    ].join('\n');
    const run = fakeIo(wrapped);
    expect(await runCli(['explain-scheduling', '-o', 'json'], run.io)).toBe(0);
    const all = JSON.parse(run.stdout()) as {
      total: number;
      reasons: { count: number }[];
      preemption: { total: number };
    }[];
    expect(all).toHaveLength(2);
    expect(all[0]?.reasons.map((r) => r.count)).toEqual([1, 9]);
    expect(all[0]?.preemption.total).toBe(10);
    expect(all[1]?.total).toBe(5);
  });

  it('prints each distinct message once in text mode, naming the lines it came from', async () => {
    const run = fakeIo(`${MESSAGE.trim()}\n${TAINTED}\n${MESSAGE.trim()}\n`);
    expect(await runCli(['explain-scheduling'], run.io)).toBe(0);
    const out = run.stdout();
    expect(out).toContain('Message 1 of 2 (lines 1, 3: the same message 2 times):');
    expect(out).toContain('Message 2 of 2 (line 2):');
    expect(out.split('What would change the outcome:')).toHaveLength(3);
  });

  it('names the message that is not a scheduler message among several (exit 2, nothing printed)', async () => {
    const run = fakeIo(`${MESSAGE.trim()}\n\nhello, is the cluster on fire?\n\n${TAINTED}\n`);
    expect(await runCli(['explain-scheduling'], run.io)).toBe(2);
    expect(run.stderr()).toMatch(
      /^rollout-doctor explain-scheduling: message 2 of 3 \(line 3\): not a FailedScheduling message/,
    );
    expect(run.stdout()).toBe('');
  });

  it('exits 2 on a bad option', async () => {
    const run = fakeIo(MESSAGE);
    expect(await runCli(['explain-scheduling', '-o', 'yaml'], run.io)).toBe(2);
    expect(run.stderr()).toContain('-o must be text or json');
    expect(await runCli(['explain-scheduling', '--bogus'], run.io)).toBe(2);
  });
});
