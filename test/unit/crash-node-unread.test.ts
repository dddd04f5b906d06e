/**
 * A crash on one node whose Node object was not read: whether the node is the cause is
 * unknown, never "not in one node". web crash-loops on node-a and runs healthy on node-b
 * and node-c; with node-a's Node object missing from the dump it read "crashes on more
 * nodes (1) than it runs healthy on (2)" and "the cause is in the container, not in one
 * node". With every node read, the same pods are CrashLoopOnNode.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Report = { findings: { code: string; explanation?: string }[] };

const dump = fixtureDump('crash-on-one-node.json');

const diagnose = async (edit?: (items: DumpItem[]) => DumpItem[]) => {
  const { stdout } = await dump.cli(['diagnose', 'deployment/web', '-n', 'shop', '-o', 'json'], edit);
  return JSON.parse(stdout) as Report;
};

const withoutNodeA = (items: DumpItem[]) =>
  items.filter((i) => !(i.kind === 'Node' && i.metadata.name === 'node-a'));

describe('a crashing node not read', () => {
  it('neither blames nor clears the node, and counts the nodes as they are', async () => {
    const report = await diagnose(withoutNodeA);
    const crash = report.findings.find((f) => f.code === 'CrashLoop');
    expect(crash?.explanation).toContain(
      'The template crashes on 1 node (node-a) and runs healthy on 2, and the Node objects of node-a were not read',
    );
    expect(crash?.explanation).toContain('the node is neither blamed nor cleared');
    expect(crash?.explanation).not.toContain('not in one node');
    expect(crash?.explanation).not.toContain('more nodes');
  });

  it('with every node read the same pods blame node-a', async () => {
    const report = await diagnose();
    expect(report.findings.map((f) => f.code)).toContain('CrashLoopOnNode');
  });
});
