import { describe, expect, it } from 'vitest';
import { crashLoopOnNode } from '../../src/diagnosis/analyzers/crash-loop-on-node.js';
import { findCrashClue } from '../../src/diagnosis/crash/crash-clues.js';
import type { ContainerReport } from '../../src/diagnosis/crash/container-failures.js';
import type { NodeDifference } from '../../src/diagnosis/crash/node-diff.js';
import { crashScenario } from '../support/crash-fixtures.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

function report(message: string | undefined, logTail: string | undefined): ContainerReport {
  return {
    pod: 'api-6b8f9d7c5-x2k9p',
    podUid: '0b6f2e55-7a1d-4c39-a1e8-3f0f6a2b9c41',
    node: 'node-b',
    container: 'api',
    init: false,
    ready: false,
    restartCount: 7,
    ...(message !== undefined
      ? {
          lastTermination: {
            exitCode: 1,
            reason: 'Error',
            message,
            startedAt: '2026-11-22T02:59:00Z',
            finishedAt: '2026-11-22T02:59:01Z',
          },
        }
      : {}),
    failures: ['crash-loop'],
    missingConfig: [],
    probeKills: [],
    ...(logTail !== undefined ? { logTail } : {}),
  };
}

const DIFFS: NodeDifference[] = [
  { field: 'condition ReadonlyFilesystem', bad: 'True', good: 'False', category: 'condition' },
  { field: 'kernelVersion', bad: '4.19.0-26-cloud-amd64', good: '6.1.0-27-cloud-amd64', category: 'kernel' },
  {
    field: 'containerRuntimeVersion',
    bad: 'containerd://1.6.8',
    good: 'containerd://1.7.22',
    category: 'runtime',
  },
  { field: 'osImage', bad: 'Ubuntu 24.04.1 LTS', good: 'Ubuntu 22.04.5 LTS', category: 'os' },
];

describe('findCrashClue', () => {
  it.each([
    [
      'open /var/lib/app/cache/index.db: read-only file system',
      'read-only-fs',
      'condition ReadonlyFilesystem',
    ],
    [
      'failed to create cgroup: mkdir /sys/fs/cgroup/cpuset/app: no such file or directory',
      'cgroup',
      'kernelVersion',
    ],
    ['accept4: too many open files; retrying in 1s', 'open-files', 'containerRuntimeVersion'],
    ["/usr/bin/app: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found", 'glibc', 'osImage'],
    ['Fatal glibc error: CPU does not support x86-64-v2', 'cpu-instructions', undefined],
  ])('%s → %s pointing at %s', (line, kind, pointsAt) => {
    const clue = findCrashClue([report(undefined, `2026-11-22T02:59:00Z starting\n${line}\n`)], DIFFS);
    expect(clue).toMatchObject({ kind, text: line, source: 'log' });
    expect(clue?.pointsAt).toBe(pointsAt);
  });

  it('reads the termination message before the log, and finds nothing in an ordinary application error', () => {
    const clue = findCrashClue([report('exec /app: exec format error', 'SIGILL: illegal instruction\n')]);
    expect(clue).toMatchObject({ kind: 'exec-format', source: 'termination-message' });
    expect(
      findCrashClue([report('panic: nil map', 'error: connection refused to db:5432\n')]),
    ).toBeUndefined();
  });

  it('seed B shape: an AVX-512 illegal instruction on nodes without CPU feature labels says how to compare the CPUs', () => {
    const { snapshot } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c'],
      crashing: [1],
      crash: {
        exitCode: 132,
        message:
          'illegal instruction (core dumped): checkout-server uses AVX-512 instructions not supported by this CPU',
        log: 'SIGILL: illegal instruction\n',
      },
    });
    const diff = crashLoopOnNode
      .analyze(new AnalysisContext(snapshot))[0]
      ?.evidence.find((e) => e.type === 'node-diff');
    const clue = diff?.type === 'node-diff' ? diff.clue : undefined;
    expect(clue).toMatchObject({ kind: 'cpu-instructions', source: 'termination-message' });
    expect(clue?.pointsAt).toBeUndefined();
    expect(clue?.meaning).toContain('compare their CPU flags (lscpu)');
  });
});
