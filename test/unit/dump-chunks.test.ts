/**
 * Large dumps are read piece by piece (src/diagnosis/snapshot/dump/dump-chunks.ts): each document,
 * and each item of a List, is parsed on its own. These tests hold the pieces to what
 * parsing the whole text gives, and check that errors still name the line of the
 * whole file and that objects no diagnosis of the namespace can use are dropped.
 */
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { splitDocuments, splitListItems } from '../../src/diagnosis/snapshot/dump/dump-chunks.js';
import { relevantTo } from '../../src/diagnosis/snapshot/dump/dump-relevance.js';
import { DumpError, loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { assembleSnapshot, newestTimestamp } from '../../src/diagnosis/snapshot/dump/assemble.js';
import type { KubeEvent, KubeObject } from '../../src/diagnosis/k8s.js';
import { renderText } from '../../src/report/text.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';
import { makeDeployment, makeEvent, makeNode, makePod, makeReplicaSet } from '../support/k8s-builders.js';

const deployment = makeDeployment('object-tracker', { namespace: 'vision' });
const rs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 2 });
const pod = makePod(rs, 'x2kqp', 'gpu-node-7', { phase: 'Running' });
const node = makeNode('gpu-node-7');

/** `kubectl get ... -o yaml` writes the items sequence at column 0. */
function kubectlList(items: unknown[]): string {
  const body = items.map((item) => `- ${stringify(item).trimEnd().replace(/\n/g, '\n  ')}\n`).join('');
  return `apiVersion: v1\nitems:\n${body}kind: List\nmetadata:\n  resourceVersion: ""\n`;
}

describe('splitting a dump', () => {
  it('cuts a kubectl List into its items, each parsing to the object the whole text holds', () => {
    const text = kubectlList([deployment, rs, pod, node]);
    const [doc] = splitDocuments(text);
    expect(doc).toBeDefined();
    const list = doc && splitListItems(doc);
    expect(list?.items.map((item) => (load(item.text) as unknown[])[0])).toEqual(
      (load(text) as { items: unknown[] }).items,
    );
    expect(load(list?.header.text ?? '')).toEqual({
      apiVersion: 'v1',
      items: [],
      kind: 'List',
      metadata: { resourceVersion: '' },
    });
  });

  it('cuts an indented items sequence too, as the yaml library writes it', () => {
    const text = stringify({ apiVersion: 'v1', kind: 'List', items: [pod, node] });
    expect(text).toContain('\n  - ');
    const [doc] = splitDocuments(text);
    expect(doc && splitListItems(doc)?.items.map((item) => (load(item.text) as unknown[])[0])).toEqual([
      pod,
      node,
    ]);
  });

  it('keeps block scalars whose lines look like items or markers inside an item', () => {
    const message = 'panic: boom\n- not an item\nitems:\n  - nor this';
    const crashed = structuredClone(pod);
    crashed.metadata.annotations = { note: message };
    const objects = loadObjects(kubectlList([crashed, node]));
    expect(objects.map((o) => o.kind)).toEqual(['Pod', 'Node']);
    expect(objects[0]?.metadata?.annotations?.['note']).toBe(message);
  });

  it('cuts multi-document YAML at --- and ... and keeps each document line', () => {
    const text = `# dump\n---\n${stringify(node)}...\n---\n${stringify(pod)}`;
    const docs = splitDocuments(text);
    expect(docs.map((d) => (load(d.text) as { kind: string }).kind)).toEqual(['Node', 'Pod']);
    expect(text.split('\n')[docs[1]?.line ?? -1]).toBe('---');
  });

  it('names the line of the whole file when an item deep in a List is broken', () => {
    const good = kubectlList([deployment, rs, node]);
    const lines = good.split('\n');
    const at = lines.findIndex((l) => l.startsWith('- ') && l.includes('Node'));
    const broken = [...lines.slice(0, at + 2), '  bad: [unclosed', ...lines.slice(at + 2)].join('\n');
    let error: unknown;
    try {
      loadObjects(broken);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DumpError);
    expect(String(error)).toMatch(new RegExp(`line ${at + 3}|line ${at + 4}`));
    expect(String(error)).not.toContain('unclosed');
  });

  it('names the line of the whole file when a later document is broken', () => {
    const text = `${stringify(node)}---\n${stringify(pod)}---\nkind: Pod\nmetadata: {name: [x\n`;
    const line = text.split('\n').findIndex((l) => l.startsWith('metadata: {name: [x')) + 1;
    expect(() => loadObjects(text)).toThrow(
      `document 3 is not valid YAML or JSON: deficient indentation at line ${line + 1}, column 1`,
    );
  });

  it('gives the same objects as parsing whole, for List, multi-document and JSON forms', () => {
    const items = [deployment, rs, pod, node];
    const multi = items.map((o) => `---\n${stringify(o)}`).join('');
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
    for (const text of [kubectlList(items), multi, json]) expect(loadObjects(text)).toEqual(items);
  });
});

describe('reading only what a diagnosis of the namespace uses', () => {
  it('drops other namespaces’ ReplicaSets, events and config, keeps their pods and cluster objects', () => {
    const other = makeDeployment('ledger', { namespace: 'payments' });
    const otherRs = makeReplicaSet(other, '5c7d9f8b4c');
    const otherPod = makePod(otherRs, 'q8wzt', 'gpu-node-7', { phase: 'Running' });
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'payments' } };
    const text = kubectlList([deployment, rs, pod, node, other, otherRs, otherPod, config]);
    const kept = loadObjects(text, { keep: relevantTo({ namespace: 'vision' }) });
    expect(kept.map((o) => `${o.kind}/${o.metadata?.name ?? ''}`)).toEqual([
      'Deployment/object-tracker',
      'ReplicaSet/object-tracker-6d4cf56db6',
      'Pod/object-tracker-6d4cf56db6-x2kqp',
      'Node/gpu-node-7',
      'Deployment/ledger',
      'Pod/ledger-5c7d9f8b4c-q8wzt',
    ]);
  });

  it('still checks the objects it drops', () => {
    const text = kubectlList([
      deployment,
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'x', namespace: 'payments' } },
    ]);
    expect(() => loadObjects(text, { keep: relevantTo({ namespace: 'vision' }) })).toThrow(
      /items\[1\].*spec/,
    );
  });

  it('keeps no managed fields but the Deployment’s, and no Secret data', () => {
    const withFields = structuredClone(pod) as typeof pod & { metadata: { managedFields?: unknown[] } };
    withFields.metadata.managedFields = [{ manager: 'kubelet', operation: 'Update' }];
    const ownedDeployment = structuredClone(deployment) as typeof deployment & {
      metadata: { managedFields?: unknown[] };
    };
    ownedDeployment.metadata.managedFields = [{ manager: 'argocd-controller', operation: 'Apply' }];
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'token', namespace: 'vision' },
      data: { token: 'c2VjcmV0' },
    };
    const [d, p, s] = loadObjects(kubectlList([ownedDeployment, withFields, secret]));
    expect((d?.metadata as { managedFields?: unknown }).managedFields).toHaveLength(1);
    expect((p?.metadata as { managedFields?: unknown }).managedFields).toBeUndefined();
    expect(s).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token', namespace: 'vision' } });
  });
});

describe('hostile and odd dumps', () => {
  it('refuses a YAML alias bomb quickly, but reads a dump that repeats a value by alias', () => {
    const levels = ['x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i <= 9; i += 1)
      levels.push(
        `x${i}: &x${i} [${Array(10)
          .fill(`*x${i - 1}`)
          .join(', ')}]`,
      );
    const bomb = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: boom, namespace: vision}\nother:\n${levels.map((l) => `  ${l}`).join('\n')}\n`;
    expect(() => loadObjects(bomb)).toThrow(/alias bomb/);
    const shared = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: a, labels: &l {pool: gpu}}\n- apiVersion: v1\n  kind: Node\n  metadata: {name: b, labels: *l}\n`;
    expect(loadObjects(shared).map((o) => o.metadata?.labels)).toEqual([{ pool: 'gpu' }, { pool: 'gpu' }]);
  });

  it('refuses JSON nested deeper than any Kubernetes object', () => {
    expect(() => loadObjects(`${'['.repeat(5000)}${']'.repeat(5000)}`)).toThrow(/nests deeper than/);
  });

  it('counts an object dumped twice once, keeping the later copy', () => {
    const later = structuredClone(pod);
    later.metadata.resourceVersion = '1200';
    const objects = loadObjects(`${kubectlList([deployment, pod])}---\n${kubectlList([later])}`);
    expect(objects.filter((o) => o.kind === 'Pod')).toEqual([later]);
  });
});

describe('the time of a dump', () => {
  it('is never taken from an annotation, a label or config data', () => {
    const annotated = structuredClone(pod);
    annotated.metadata.annotations = { 'example.com/lastSeenAt': '2099-01-01T00:00:00Z' };
    const config = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'vision' },
      data: { expiresAt: '2099-01-01T00:00:00Z', startedAt: '2098-01-01T00:00:00Z' },
    };
    const time = newestTimestamp([deployment, rs, annotated, config] as unknown as KubeObject[]);
    expect(time).not.toMatch(/^209/);
    expect(time).toBe(newestTimestamp([deployment, rs, pod] as unknown as KubeObject[]));
  });
});

describe('a dump that misses some of the Deployment’s pods', () => {
  it('is IncompleteEvidence, not "no problem", when an event names a pod of its ReplicaSet that is absent', () => {
    const snapshot = seedIncidentA();
    const pending = snapshot.pods.find((p) => !p.spec.nodeName);
    expect(pending).toBeDefined();
    const objects = [
      snapshot.deployment,
      ...snapshot.replicaSets,
      ...snapshot.pods.filter((p) => p !== pending),
      ...snapshot.events,
      ...snapshot.nodes,
    ] as unknown as KubeObject[];
    const assembled = assembleSnapshot(snapshot.target, objects);
    expect(assembled.coverage.pods).toBe('partial');
    const result = diagnose(assembled);
    expect(result.findings.map((f) => f.code)).toContain('IncompleteEvidence');
    expect(JSON.stringify(result.findings)).toContain(pending?.metadata.name ?? '?');
    // the same dump with the pod: complete, and the deadlock
    const whole = assembleSnapshot(snapshot.target, [...objects, pending] as unknown as KubeObject[]);
    expect(whole.coverage.pods).toBe('complete');
    expect(diagnose(whole).findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  });
});

describe('a dump after a finished rollout: the old pods were deleted, not left out', () => {
  const done = makeDeployment('object-tracker', {
    namespace: 'vision',
    status: {
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      observedGeneration: 2,
    },
  });
  const oldRs = makeReplicaSet(done, '6d4cf56db6', { revision: 1, replicas: 0 });
  const newRs = makeReplicaSet(done, '7bbc65dc8c', { revision: 2 });
  const running = makePod(newRs, 'hr8jm', 'gpu-node-7', { phase: 'Running' });
  const gone = `${oldRs.metadata.name ?? ''}-grj9c`;
  const onGone = { kind: 'Pod', name: gone, namespace: 'vision' };
  const scheduled = makeEvent(onGone, 'Scheduled', `assigned to gpu-node-7`);
  // The old ReplicaSet's status still counting the pod: its deletion is not recorded yet.
  const stillCounted = { ...oldRs, status: { ...oldRs.status, replicas: 1 } };
  const assembledWith = (rs: typeof oldRs, ...events: KubeEvent[]) =>
    assembleSnapshot({ kind: 'Deployment', namespace: 'vision', name: 'object-tracker' }, [
      done,
      rs,
      newRs,
      running,
      node,
      scheduled,
      ...events,
    ] as unknown as KubeObject[]);
  const assembled = (...events: KubeEvent[]) => assembledWith(stillCounted, ...events);

  it('issue 29.6: the ReplicaSet scaled to 0 counts no pod, so an hour-old event about its pod proves nothing missing', () => {
    const snapshot = assembledWith(oldRs);
    expect(snapshot.coverage.pods).toBe('complete');
    expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('IncompleteEvidence');
  });

  it("the ReplicaSet's SuccessfulDelete names the pod: pods complete, no IncompleteEvidence", () => {
    const deleted = makeEvent(
      { kind: 'ReplicaSet', name: oldRs.metadata.name, namespace: 'vision' },
      'SuccessfulDelete',
      `Deleted pod: ${gone}`,
    );
    const snapshot = assembled(deleted);
    expect(snapshot.coverage.pods).toBe('complete');
    expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('IncompleteEvidence');
  });

  it("the kubelet's Killing (Stopping container) on the pod: deleted too", () => {
    const killing = makeEvent(onGone, 'Killing', 'Stopping container object-tracker', { type: 'Normal' });
    expect(assembled(killing).coverage.pods).toBe('complete');
  });

  it('look-alike: Killing for a failed liveness probe restarts the container, the pod lives on: still missing', () => {
    const probe = makeEvent(
      onGone,
      'Killing',
      'Container object-tracker failed liveness probe, will be restarted',
      {
        type: 'Normal',
      },
    );
    const snapshot = assembled(probe);
    expect(snapshot.coverage.pods).toBe('partial');
    expect(JSON.stringify(snapshot.coverage.gaps)).toContain(`events name pod ${gone}`);
  });

  it('the report says evidence was not read, not that checks failed, when only evidence is missing', () => {
    const text = renderText(diagnose(assembled()));
    expect(text).toContain('No verdict: some evidence was not read:');
    expect(text).not.toContain('some checks failed');
  });
});
