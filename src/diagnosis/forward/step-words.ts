/**
 * What the forward model saw happen, in the words of a finding: each kind of step once,
 * in the order it first happened ("terminating pod x is gone …, new pod y becomes Ready").
 */
import type { Step } from './model.js';
import type { Outcome } from './run.js';

export function stepsInPlainWords(outcome: Outcome): string[] {
  return 'steps' in outcome ? [...new Set(outcome.steps.map(stepWords))] : [];
}

function stepWords(step: Step): string {
  switch (step.kind) {
    case 'gone':
      return `terminating pod ${step.pod} is gone (until then it holds its node's room and its quota)`;
    case 'ready':
      return step.waitsMinReady
        ? `new pod ${step.pod}, Ready, becomes available (minReadySeconds)`
        : `new pod ${step.pod} becomes Ready`;
    case 'node-added':
      return `the cluster autoscaler adds a node for pending pod ${step.pod} (it triggered a scale-up)`;
    case 'old-removed':
      return `the controller removes old pod ${step.pod}`;
    case 'admitted':
      return `quota ${step.quota} admits the next new pod`;
    case 'preempted':
      return `the scheduler preempts ${step.victims.join(', ')} on ${step.node} for ${step.pod}`;
    case 'crashed':
      return `a new pod starts on ${step.node} and crash-loops there`;
    case 'deleted':
      return `pod ${step.pod} is deleted`;
    case 'rival-placed':
      return `${step.owner}'s pending pod ${step.pod} takes the room on ${step.node}`;
  }
}
