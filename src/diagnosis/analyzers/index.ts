import type { Analyzer } from '../analyzer.js';
import { accessDenied } from './access-denied.js';
import { configError } from './config-error.js';
import { createRefused } from './create-refused.js';
import { crashLoopOnNode } from './crash-loop-on-node.js';
import { crashLoop } from './crash-loop.js';
import { execFormatError } from './exec-format-error.js';
import { incompleteEvidence } from './incomplete-evidence.js';
import { imagePullFailure } from './image-pull-failure.js';
import { oomKilled } from './oom-killed.js';
import { preemptionUnderWay } from './preemption-under-way.js';
import { probeFailure } from './probe-failure.js';
import { progressDeadline } from './progress-deadline.js';
import { rolloutAtRisk } from './rollout-at-risk.js';
import { pausedRollout } from './paused-rollout.js';
import { rolloutHalt } from './rollout-halt.js';
import { rolloutStuck } from './rollout-stuck.js';
import { surgeDeadlock } from './surge-deadlock.js';
import { unschedulable } from './unschedulable.js';
import { unavailable } from './unavailable.js';
import { volumePinned } from './volume-pinned.js';

/**
 * Every analyzer, in reporting order (the most decisive verdicts first). One module
 * per analyzer in this folder; add new ones here.
 */
export const analyzers: readonly Analyzer[] = [
  surgeDeadlock,
  rolloutStuck,
  createRefused,
  preemptionUnderWay,
  unschedulable,
  crashLoopOnNode,
  // A crash's own cause (memory, the binary, its configuration, the image, a probe)
  // reads before the general crash loop it causes.
  oomKilled,
  execFormatError,
  configError,
  imagePullFailure,
  probeFailure,
  crashLoop,
  progressDeadline,
  rolloutHalt,
  rolloutAtRisk,
  // A pod still to be replaced whose volume no node that takes pods allows.
  volumePinned,
  // After the verdicts on what stands now: a paused rollout's fate once resumed.
  pausedRollout,
  incompleteEvidence,
  accessDenied,
  // Last: it judges what the others left unexplained.
  unavailable,
];
