/**
 * The remediation kind registry (src/remediation/kinds/): every stable kind name has
 * exactly one module, and each module states every part the executor, the allowlist,
 * drift, the watch, the confirm dialog, the outcome and `cli apply` look up. A kind
 * added without one of them fails here, not in production at the first apply.
 */
import { describe, expect, it } from 'vitest';
import { planBuilders } from '../../src/remediation/builders/index.js';
import { findKind, REMEDIATION_KIND_MODULES, remediationKinds } from '../../src/remediation/kinds/index.js';
import type { RemediationKindModule, WriteOperation } from '../../src/remediation/kinds/kind.js';
import { REMEDIATION_KINDS } from '../../src/remediation/plan.js';

const OPERATIONS: readonly WriteOperation[] = [
  'workload-patch',
  'workload-status-patch',
  'replicaset-scale',
  'pod-deletion',
  'device-taint-rule-creation',
  'device-taint-rule-deletion',
];
const WORDS = ['change', 'restores', 'rollout', 'write', 'applied'] as const;

/** Every part a module must state, as a list of what is missing or wrong. */
function missingParts(module: RemediationKindModule): string[] {
  const missing: string[] = [];
  const need = (ok: boolean, part: string): void => {
    if (!ok) missing.push(part);
  };
  need(typeof module.answers === 'object' && module.answers !== null, 'answers');
  for (const [code, build] of Object.entries(module.answers))
    need(typeof build === 'function', `answers.${code}`);
  need(OPERATIONS.includes(module.writes), 'writes');
  need(typeof module.clusterScoped === 'boolean', 'clusterScoped');
  need(typeof module.spendsAvailability === 'boolean', 'spendsAvailability');
  need(typeof module.changesPods === 'boolean', 'changesPods');
  need(typeof module.paths === 'function', 'paths');
  need(typeof module.checkPayload === 'function', 'checkPayload');
  need(module.staleWhen === 'replaced' || module.staleWhen === 'spec-changed', 'staleWhen');
  need(typeof module.inverse === 'function', 'inverse');
  need(typeof module.watch === 'function', 'watch');
  need(
    module.drift?.looksAt === 'patched-fields' ||
      (module.drift?.looksAt === 'objects-outside-the-manifest' &&
        typeof module.drift.verdict === 'function'),
    'drift',
  );
  for (const word of WORDS) need(typeof module.words?.[word] === 'function', `words.${word}`);
  need(module.alreadySet === undefined || typeof module.alreadySet === 'function', 'alreadySet');
  const proof = module.proof;
  if (proof !== undefined) {
    need(proof.goal === 'rollout-completes' || proof.goal === 'crash-off-its-nodes', 'proof.goal');
    for (const part of ['replacesWithTemplate', 'bypassesPause'] as const)
      need(typeof proof[part] === 'boolean', `proof.${part}`);
    for (const part of ['intervention', 'takesDown'] as const)
      need(proof[part] === undefined || typeof proof[part] === 'function', `proof.${part}`);
  }
  return missing;
}

describe('remediation kind registry', () => {
  it('has one module per stable kind name, under its own name, and nothing else', () => {
    expect(Object.keys(REMEDIATION_KIND_MODULES).sort()).toEqual([...REMEDIATION_KINDS].sort());
    for (const [name, module] of Object.entries(REMEDIATION_KIND_MODULES)) expect(module.kind).toBe(name);
    expect(remediationKinds).toHaveLength(REMEDIATION_KINDS.length);
    expect(findKind('not-a-kind')).toBeUndefined();
    expect(findKind('toString')).toBeUndefined();
  });

  it.each(REMEDIATION_KINDS)('%s states every part', (kind) => {
    expect(missingParts(REMEDIATION_KIND_MODULES[kind])).toEqual([]);
  });

  /** Which kinds take serving pods down, and why: the plan gate holds these back (src/engine/plan-gate.ts). */
  const SPENDS: Record<string, boolean> = {
    'set-rolling-update': true, // maxUnavailable above 0: old pods stop before new ones are Ready
    'set-recreate': true, // every old pod stops before a new one starts
    'scale-old-replicaset': true, // the old ReplicaSet's pods stop first
    'rollout-restart': true, // every pod is replaced
    'abort-rollout': true, // the new pods go
    'delete-pods': true, // the deleted pods serve no more until replaced
    'exclude-node': false, // a rollout at the strategy's pace, off one node
    'taint-device': true, // the pods holding the device are deleted, as delete-pods deletes its pods
    'scale-back-old-replicaset': false, // only an Undo: adds old pods back
    'untaint-device': false, // only an Undo: takes a taint off
  };

  it.each(REMEDIATION_KINDS)('%s says whether it takes serving pods down', (kind) => {
    expect(REMEDIATION_KIND_MODULES[kind].spendsAvailability).toBe(SPENDS[kind]);
  });

  /** Which kinds create, delete or move pods: each such plan is run forward before it is shown (src/engine/plan-proof.ts). */
  const CHANGES_PODS: Record<string, boolean> = {
    'set-rolling-update': true, // the rollout moves at the new pace
    'set-recreate': true,
    'scale-old-replicaset': true,
    'rollout-restart': true,
    'abort-rollout': true,
    'delete-pods': true,
    'exclude-node': true, // a template change: every pod is replaced, off the node
    'taint-device': true, // the device's pods are evicted or stay off it
    'scale-back-old-replicaset': false, // only an Undo: gives back what its plan took
    'untaint-device': false, // only an Undo
  };

  it.each(REMEDIATION_KINDS)('%s says whether it changes pods (and so is run forward first)', (kind) => {
    expect(REMEDIATION_KIND_MODULES[kind].changesPods).toBe(CHANGES_PODS[kind]);
  });

  /**
   * How the forward proof (src/engine/plan-proof.ts) runs each kind, and what the plan
   * gate asks (src/engine/plan-gate.ts): undefined, a kind that changes no pod
   * (CHANGES_PODS above). `model`: what the forward model is handed (the patched workload, the
   * kind's own intervention, or nothing it follows: its counts are checked); `counts`:
   * whether the kind counts what its own write takes down (else the strategy does).
   */
  const PROOF: Record<string, object | undefined> = {
    'set-rolling-update': {
      model: 'patched',
      counts: false,
      template: true,
      pause: false,
      goal: 'rollout-completes',
      alreadySet: true,
    },
    'set-recreate': {
      model: 'patched',
      counts: false,
      template: true,
      pause: false,
      goal: 'rollout-completes',
      alreadySet: true,
    },
    'rollout-restart': {
      model: 'patched',
      counts: false,
      template: true,
      pause: false,
      goal: 'rollout-completes',
      alreadySet: false,
    },
    'exclude-node': {
      model: 'patched',
      counts: false,
      template: true,
      pause: false,
      goal: 'crash-off-its-nodes',
      alreadySet: false,
    },
    // The old ReplicaSet's new scale; the controller's scale path moves a paused rollout.
    'scale-old-replicaset': {
      model: 'own',
      counts: true,
      template: true,
      pause: true,
      goal: 'rollout-completes',
      alreadySet: false,
    },
    // A status write: counted, takes none down itself.
    'abort-rollout': {
      model: 'counts',
      counts: true,
      template: false,
      pause: false,
      goal: 'rollout-completes',
      alreadySet: false,
    },
    // Relief beside exclude-node (reliefOnly).
    'delete-pods': {
      model: 'own',
      counts: true,
      template: false,
      pause: false,
      goal: 'rollout-completes',
      alreadySet: false,
    },
    'taint-device': {
      model: 'counts',
      counts: true,
      template: false,
      pause: false,
      goal: 'rollout-completes',
      alreadySet: false,
    },
    'scale-back-old-replicaset': undefined,
    'untaint-device': undefined,
  };

  it.each(REMEDIATION_KINDS)(
    '%s says how it is proved before it is shown, and when it changes nothing',
    (kind) => {
      const module = REMEDIATION_KIND_MODULES[kind] as RemediationKindModule;
      const proof = module.proof;
      const stated = proof && {
        model: proof.intervention ? 'own' : module.writes === 'workload-patch' ? 'patched' : 'counts',
        counts: proof.takesDown !== undefined,
        template: proof.replacesWithTemplate,
        pause: proof.bypassesPause,
        goal: proof.goal,
        alreadySet: module.alreadySet !== undefined,
      };
      expect(stated).toEqual(PROOF[kind]);
      // A proof rule for every kind that changes pods, and for no other.
      expect(proof !== undefined, kind).toBe(module.changesPods);
    },
  );

  it('sees a missing part (the check above can fail)', () => {
    const { words, ...noWords } = REMEDIATION_KIND_MODULES['delete-pods'];
    expect(missingParts({ ...noWords, words: { ...words, applied: undefined } } as never)).toEqual([
      'words.applied',
    ]);
    expect(missingParts({ ...noWords, writes: 'patch-everything' } as never)).toContain('writes');
    expect(missingParts({ ...noWords, words, spendsAvailability: undefined } as never)).toEqual([
      'spendsAvailability',
    ]);
    expect(missingParts({ ...noWords, words, changesPods: undefined } as never)).toEqual(['changesPods']);
    const proof = REMEDIATION_KIND_MODULES['delete-pods'].proof;
    expect(
      missingParts({ ...noWords, words, proof: { ...proof, bypassesPause: undefined } } as never),
    ).toEqual(['proof.bypassesPause']);
  });

  it('every kind is offered for some finding, or exists only as the Undo of one that is', () => {
    for (const module of remediationKinds) {
      const offered = Object.keys(module.answers).length > 0;
      if (module.undoes === undefined) {
        expect(offered, `${module.kind} answers no finding`).toBe(true);
      } else {
        expect(offered, `${module.kind} is an Undo, never offered`).toBe(false);
        expect(Object.keys(findKind(module.undoes)?.answers ?? {}), module.kind).not.toEqual([]);
      }
    }
  });

  it('a kind that patches names the paths it may write; one that writes no patch names none', () => {
    for (const module of remediationKinds) {
      const paths = module.paths((module.workloads ?? ['Deployment'])[0] ?? 'Deployment');
      const patches = ['workload-patch', 'workload-status-patch', 'replicaset-scale'].includes(module.writes);
      expect(paths.length > 0, module.kind).toBe(patches);
      for (const path of paths) expect(path, module.kind).toMatch(/^\/[^/]/);
    }
  });

  it('only the DeviceTaintRule kinds write a cluster-scoped object', () => {
    expect(remediationKinds.filter((k) => k.clusterScoped).map((k) => k.kind)).toEqual([
      'taint-device',
      'untaint-device',
    ]);
  });

  it('plan builders by finding come from the kinds that answer it, in registry order', () => {
    expect(Object.keys(planBuilders).sort()).toEqual(
      [...new Set(remediationKinds.flatMap((k) => Object.keys(k.answers)))].sort(),
    );
    expect(remediationKinds.filter((k) => k.answers.RolloutSurgeDeadlock).map((k) => k.kind)).toEqual([
      'set-rolling-update',
      'set-recreate',
      'scale-old-replicaset',
      'rollout-restart',
      'abort-rollout',
    ]);
    expect(remediationKinds.filter((k) => k.answers.CrashLoopOnNode).map((k) => k.kind)).toEqual([
      'exclude-node',
      'taint-device',
      'delete-pods',
    ]);
  });
});
