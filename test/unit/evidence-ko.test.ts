/**
 * A finding's evidence in the reader's language (message/words/evidence.ts): the decisive
 * lines of a result message and the tables of the thread report, in Korean around facts
 * kept as written (names, amounts, field names). English stays as it always read.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/diagnosis/finding.js';
import { clueLine, evidenceLine, evidenceParts } from '../../src/message/evidence.js';
import { plainText } from '../../src/message/rich.js';
import type { ContentPart } from '../../src/message/model.js';

const crash: Evidence = {
  type: 'crash-table',
  rows: [
    { node: 'node-05', pods: 1, ready: 0, restarts: 12, crashing: 1, lastExitCode: 132, lastReason: 'Error' },
    { node: 'node-02', pods: 1, ready: 1, restarts: 0, crashing: 0 },
  ],
  containers: [{ name: 'istio-init', kind: 'init', injected: true }],
};

const capacity: Evidence = {
  type: 'node-capacity',
  rows: [
    {
      node: 'gpu-1',
      resource: 'nvidia.com/gpu',
      allocatable: '1',
      used: '1',
      free: '0',
      holders: [{ pod: 'tracker-6d4c-x2kqp', amount: '1', ownedByThisDeployment: true }],
    },
  ],
};

const quota: Evidence = {
  type: 'quota',
  quota: 'team-quota',
  rows: [
    {
      resource: 'requests.memory',
      hard: '32Gi',
      used: '30Gi',
      requested: '8Gi',
      ours: '24Gi',
      others: '6Gi',
    },
  ],
} as Evidence;

const diff: Evidence = {
  type: 'node-diff',
  badNodes: ['node-05'],
  goodNodes: ['node-01', 'node-02'],
  differences: [{ field: 'label cpu-gen', bad: 'haswell', good: 'icelake' }],
};

const line = (e: Evidence, lang: 'en' | 'ko'): string => plainText(evidenceLine(e, { lang }) ?? []);
const titles = (parts: ContentPart[]): string[] =>
  parts.flatMap((p) => ('title' in p && p.title ? [plainText(p.title)] : []));

describe('evidence in Korean', () => {
  it.each<[string, Evidence, string, string]>([
    [
      'crash table',
      crash,
      '노드별 파드: node-05 Ready 0/1, 재시작 12회, 종료 코드 132 (Error); node-02 Ready 1/1',
      'Pods per node: node-05 0/1 ready, 12 restarts, exit 132 (Error); node-02 1/1 ready',
    ],
    [
      'capacity',
      capacity,
      'gpu-1 노드의 nvidia.com/gpu: 할당 가능 1, 사용 중 1, 남은 양 0, 점유: tracker-6d4c-x2kqp (이 워크로드)',
      'nvidia.com/gpu on gpu-1: 1 allocatable, 1 in use, 0 free, held by tracker-6d4c-x2kqp (ours)',
    ],
    [
      'quota',
      quota,
      'ResourceQuota team-quota: requests.memory 32Gi 중 30Gi 사용 중(이 워크로드 24Gi), 새 파드 요청량 8Gi',
      'ResourceQuota team-quota: requests.memory 30Gi of 32Gi used (24Gi by this workload), a new pod asks 8Gi',
    ],
    [
      'node diff',
      diff,
      'node-05 노드에서 다른 점: label cpu-gen haswell (다른 노드: icelake)',
      'What differs on node-05: label cpu-gen haswell (others: icelake)',
    ],
  ])('%s: its decisive line', (_what, evidence, ko, en) => {
    expect(line(evidence, 'ko')).toContain(ko);
    expect(line(evidence, 'en')).toContain(en);
  });

  it('the log clue, and the tables of the thread report', () => {
    const clue = {
      text: 'Illegal instruction',
      pod: 'tracker-x',
      container: 'tracker',
      source: 'log',
    } as const;
    expect(plainText(clueLine(clue, 'ko'))).toContain('로그 단서 (tracker-x/tracker): Illegal instruction');
    expect(plainText(clueLine(clue))).toContain('Log clue (tracker-x/tracker): Illegal instruction');
    const crashParts = evidenceParts(crash, 'ko');
    expect(titles(crashParts)).toEqual(['노드별 파드']);
    expect(crashParts.flatMap((p) => (p.kind === 'table' ? p.header : []))).toContain('마지막 종료 코드');
    expect(plainText(crashParts[0]?.kind === 'paragraph' ? crashParts[0].text : [])).toBe(
      '비정상 종료: 초기화 컨테이너 istio-init (어드미션에서 주입됨, 파드 템플릿에는 없음)',
    );
    expect(titles(evidenceParts(quota, 'ko'))).toEqual(['ResourceQuota team-quota: 거부할 때 집계한 사용량']);
    expect(titles(evidenceParts(quota))).toEqual(['ResourceQuota team-quota, as its refusal counted it']);
  });
});
