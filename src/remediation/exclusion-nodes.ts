/**
 * Whether the nodes an exclusion keeps a workload off still carry what set them apart:
 * a node gone or replaced (another uid under its name), or one whose
 * kernel, runtime, OS image or label no longer has any value the crashing nodes had
 * (the node-diff separator the record keeps). Then the exclusion may have done its
 * job and its removal is offered. Only nodes that were read count: a node not read is
 * unknown, never "changed". Pure.
 */
import { fieldValue } from '../diagnosis/crash/node-diff.js';
import type { Node } from '../diagnosis/k8s.js';
import type { ExclusionRecord } from './exclusion-record.js';

/** One excluded node that no longer is what it was, and how. */
interface ChangedNode {
  node: string;
  change: 'gone' | 'replaced' | 'changed';
  /** For 'changed': the field and the value it has now ("kernelVersion 6.8.0-1010-aws"). */
  detail?: string;
}

/**
 * The excluded nodes that changed; empty when every one is as it was (or was not read).
 * `complete`: every node of the cluster was listed, so a node missing from `nodes` is gone.
 */
export function changedNodes(
  record: ExclusionRecord,
  nodes: readonly Node[],
  complete: boolean,
): ChangedNode[] {
  const changed: ChangedNode[] = [];
  for (const excluded of record.nodes) {
    const node = nodes.find((n) => n.metadata.name === excluded.name);
    if (!node) {
      if (complete) changed.push({ node: excluded.name, change: 'gone' });
      continue;
    }
    if (excluded.uid !== undefined && node.metadata.uid !== undefined && node.metadata.uid !== excluded.uid) {
      changed.push({ node: excluded.name, change: 'replaced' });
      continue;
    }
    const { fields, bad } = record.reason;
    const moved = fields.findIndex((field, i) => !(bad[i] ?? []).includes(fieldValue(field, node)));
    const field = fields[moved];
    if (field !== undefined) {
      changed.push({ node: excluded.name, change: 'changed', detail: `${field} ${fieldValue(field, node)}` });
    }
  }
  return changed;
}

/** Every excluded node changed: what set them apart is gone from all of them. */
export function allNodesChanged(record: ExclusionRecord, changed: readonly ChangedNode[]): boolean {
  return record.nodes.length > 0 && record.nodes.every((n) => changed.some((c) => c.node === n.name));
}
