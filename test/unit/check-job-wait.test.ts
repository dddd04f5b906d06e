/**
 * check on a manifest whose new pod needs room a running Job's pod holds (check/job-wait.ts):
 * "cannot finish while Job X runs", not "can never finish", where the manifest's run with
 * the Job's pods gone finishes; the gate's verdict stays never-finishes. A pod a
 * controller keeps (a ReplicaSet's) leaves the verdict as it was. Judged from a dump.
 */
import { describe, expect, it } from 'vitest';
import { checkOne, type CheckResult } from '../../src/check/check.js';
import { dumpSource } from '../../src/check/dump-source.js';
import { CHECK_WORDS, checkSummary } from '../../src/check/words.js';
import { checkEvidenceLines } from '../../src/check/evidence-words.js';
import { renderText } from '../../src/check/render.js';
import { warningsFor } from '../../src/admission/warning.js';
import { makeStyle } from '../../src/report/format.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { trackerManifest } from '../support/check-manifests.js';

type Json = Record<string, unknown>;

const GPU_NODE: Json = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'gpu-a', labels: { 'kubernetes.io/hostname': 'gpu-a' } },
  status: {
    allocatable: { cpu: '8', memory: '32Gi', pods: '110', 'nvidia.com/gpu': '1' },
    capacity: { cpu: '8', memory: '32Gi', pods: '110', 'nvidia.com/gpu': '1' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
};

/** A running pod on gpu-a holding its one GPU, controlled by `owner`. */
function holder(owner: { apiVersion: string; kind: string; name: string }): Json {
  const requests = { 'nvidia.com/gpu': '1' };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${owner.name}-x7k2p`,
      namespace: 'batch',
      uid: 'uid-holder',
      ownerReferences: [{ ...owner, uid: 'uid-owner', controller: true }],
    },
    spec: {
      nodeName: 'gpu-a',
      containers: [{ name: 'a', image: 'a:1', resources: { requests, limits: requests } }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

const TRACKER = trackerManifest({ resources: { limits: { 'nvidia.com/gpu': '1' } } });

const NAMESPACES = ['vision', 'batch'].map((name) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
}));

/** A pod of vision's asking for nothing, so the dump lists that namespace's pods. */
const SEEN: Json = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-0', namespace: 'vision' },
  spec: { nodeName: 'gpu-a', containers: [{ name: 'a', image: 'a:1' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
};

function judge(pod: Json): Promise<CheckResult> {
  return checkOne(
    { kind: 'Deployment', object: TRACKER, isNew: true },
    dumpSource([...NAMESPACES, GPU_NODE, SEEN, pod] as KubeObject[]),
    'vision',
  );
}

describe('check: a new pod that waits for a Job to end', () => {
  it("a Job's pod holds the GPU: cannot finish while it runs, in English and Korean", async () => {
    const r = await judge(holder({ apiVersion: 'batch/v1', kind: 'Job', name: 'train' }));
    expect(r.verdict).toBe('never-finishes');
    const [lead] = r.findings;
    if (!lead) throw new Error('no finding');
    expect(lead.summary).toBe(
      "The rollout of deployment/tracker cannot finish while Job batch/train runs: its new pods need room or quota that Job's pods hold. It goes on by itself once that Job ends.",
    );
    // The catalogue's English is predict's, byte for byte.
    expect(lead.says?.key).toBe('jobWait');
    if (lead.says?.key === 'jobWait') expect(CHECK_WORDS.jobWait.en(lead.says.params)).toBe(lead.summary);
    expect(r.reason).toBe('its new pods need room or quota that Job batch/train holds until it ends');
    expect(checkSummary(lead, 'ko')).toBe(
      'deployment/tracker 롤아웃은 Job batch/train 실행 중에는 끝나지 않습니다: 새 파드에 필요한 자리나 쿼터를 그 Job의 파드가 점유하고 있습니다. Job이 끝나면 롤아웃은 저절로 진행됩니다.',
    );
    const notes = lead.evidence
      .filter((e) => e.type === 'note')
      .flatMap((e) => checkEvidenceLines(e, makeStyle(false), 'ko'));
    expect(notes).toContain(
      '참고: 새 파드에 필요한 자리나 쿼터를 점유한 Job 파드: train-x7k2p (gpu-a) (batch/train).',
    );
    const text = renderText({
      source: { mode: 'dump', file: 'cluster.json' },
      results: [r],
      others: 0,
      notes: [],
    });
    expect(text).toContain('CANNOT FINISH WHILE JOBS RUN');
    expect(text).not.toContain('CAN NEVER FINISH');
    expect(text).toContain('1 workload(s): 0 can never finish, 1 cannot finish while Jobs run,');
    // The webhook's first warning says the same; its second, the reason.
    expect(warningsFor(r, { dryRun: true })).toEqual([
      'rollout-doctor: rollout of deployment/tracker cannot finish while running Jobs hold its room',
      'rollout-doctor: its new pods need room or quota that Job batch/train holds until it ends',
    ]);
  });

  it("a ReplicaSet's pod holds it: the pod stays, and so does 'can never finish'", async () => {
    const r = await judge(holder({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'train' }));
    expect(r.verdict).toBe('never-finishes');
    expect(r.findings[0]?.summary).toMatch(
      /^The rollout of deployment\/tracker can never finish: its new pods fit no node/,
    );
    expect(r.findings[0]?.says?.key).not.toBe('jobWait');
    expect(warningsFor(r, { dryRun: true })[0]).toMatch(/can never finish$/);
  });
});
