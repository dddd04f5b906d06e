/**
 * A minimal but faithful Argo Rollouts controller for the simulator (argoproj/argo-rollouts
 * rollout/controller.go syncHandler and newRolloutContext, rollout/context.go reconcile):
 * nothing while the rollouts.argoproj.io CRD is not stored (the API serves no
 * Rollouts then); a `workloadRef` resolved to the referenced Deployment's, ReplicaSet's or
 * PodTemplate's template and selector (rollout/templateref.go Resolve); a spec the
 * controller refuses gets InvalidSpec (validation.go: a missing selector or strategy, a
 * Service that does not exist, a template beside a workloadRef); spec.replicas defaulted
 * to 1 by an update; the new ReplicaSet created (createDesiredReplicaSet) and the
 * reconcile stopped, as upstream stops after writing the Rollout; then the paused
 * conditions, a scaling event (isScalingEvent: the new or stable ReplicaSet's
 * desired-replicas annotation is not spec.replicas) or the strategy's reconcile.
 * A canary with trafficRouting scales as the controller does for a router (traffic-routed.ts);
 * the router itself is not simulated.
 * ReplicaSets are the ones the Rollout controls (no adoption of orphans).
 */
import type { PodTemplateSpec, LabelSelector } from '../../../src/diagnosis/k8s.js';
import type { SimObject } from '../../store.js';
import type { Controller, ControllerContext } from '../manager.js';
import { replicasOf } from './canary-math.js';
import { blueGreenScalingEvent, rolloutBlueGreen } from './bluegreen.js';
import { canaryScalingEvent, rolloutCanary } from './canary.js';
import { classify, createNewRS, type RolloutContext } from './context.js';
import { newCondition, setCondition } from './conditions.js';
import { checkPausedConditions, invalidSpec } from './status.js';
import { DESIRED_REPLICAS, type Rollout, type RolloutStatus, type RS } from './types.js';
import { simNow } from '../../clock.js';

const CRD = 'rollouts.argoproj.io';

/** Resolve (templateref.go): the workload's template, its selector when the Rollout has none, its generation. */
function resolveWorkload(ctx: RolloutContext): string | undefined {
  const ref = ctx.ro.spec.workloadRef;
  if (!ref) return undefined;
  if (ctx.ro.spec.template && Object.keys(ctx.ro.spec.template).length > 0)
    return 'template must be empty for workload reference rollout';
  const group = (ref.apiVersion ?? '').includes('/') ? (ref.apiVersion ?? '').split('/')[0] : '';
  const known: Record<
    string,
    { kind: string; template: (o: SimObject) => unknown; selector?: (o: SimObject) => unknown }
  > = {
    '/PodTemplate': { kind: 'PodTemplate', template: (o) => o['template'] },
    'apps/Deployment': {
      kind: 'Deployment',
      template: (o) => (o['spec'] as { template?: unknown })?.template,
      selector: (o) => (o['spec'] as { selector?: unknown })?.selector,
    },
    'apps/ReplicaSet': {
      kind: 'ReplicaSet',
      template: (o) => (o['spec'] as { template?: unknown })?.template,
      selector: (o) => (o['spec'] as { selector?: unknown })?.selector,
    },
  };
  const info = known[`${group ?? ''}/${ref.kind ?? ''}`];
  if (!info) return `workload of type ${group ?? ''}/${ref.kind ?? ''} is not supported`;
  const workload = ctx.store.get(info.kind, ctx.obj.metadata.namespace, ref.name ?? '');
  if (!workload)
    return `${info.kind.toLowerCase()}s${group ? `.${group}` : ''} "${ref.name ?? ''}" not found`;
  const template = info.template(workload);
  ctx.ro = {
    ...ctx.ro,
    spec: { ...ctx.ro.spec, ...(template ? { template: structuredClone(template) as PodTemplateSpec } : {}) },
  };
  const selector = info.selector?.(workload);
  if (!ctx.ro.spec.selector && selector)
    ctx.ro = { ...ctx.ro, spec: { ...ctx.ro.spec, selector: structuredClone(selector) as LabelSelector } };
  ctx.workloadGeneration = String(workload.metadata.generation ?? 1);
  return undefined;
}

/** field.Invalid prints a struct value with %#v: `v1alpha1.ObjectRef{APIVersion:"apps/v1", Kind:"Deployment", Name:"web", ScaleDown:""}`. */
function goObjectRef(ro: Rollout): string {
  const r = ro.spec.workloadRef ?? {};
  const q = (v: string | undefined): string => JSON.stringify(v ?? '');
  return `v1alpha1.ObjectRef{APIVersion:${q(r.apiVersion)}, Kind:${q(r.kind)}, Name:${q(r.name)}, ScaleDown:${q(r.scaleDown)}}`;
}

/** The first error getRolloutValidationErrors would report, worded as a field error. */
function validationError(ctx: RolloutContext): string | undefined {
  const { ro } = ctx;
  const sel = ro.spec.selector;
  if (!ro.spec.workloadRef && !sel)
    return `spec.selector: Required value: Rollout has missing field '.spec.selector'`;
  if (sel && Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    const labels = sel.matchLabels ? 'map[string]string{}' : 'map[string]string(nil)';
    const expressions = sel.matchExpressions
      ? '[]v1.LabelSelectorRequirement{}'
      : '[]v1.LabelSelectorRequirement(nil)';
    return `spec.selector: Invalid value: v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:${expressions}}: empty selector is invalid for deployment`;
  }
  const strategy = ro.spec.strategy ?? {};
  if (!strategy.canary && !strategy.blueGreen)
    return `spec.strategy: Required value: Rollout has missing field '.spec.strategy.canary or .spec.strategy.blueGreen'`;
  const services: [string, string | undefined][] = strategy.blueGreen
    ? [
        ['spec.strategy.blueGreen.activeService', strategy.blueGreen.activeService],
        ['spec.strategy.blueGreen.previewService', strategy.blueGreen.previewService],
      ]
    : [
        ['spec.strategy.canary.stableService', strategy.canary?.stableService],
        ['spec.strategy.canary.canaryService', strategy.canary?.canaryService],
      ];
  for (const [path, name] of services) {
    if (name && !ctx.store.get('Service', ctx.obj.metadata.namespace, name))
      return `${path}: Invalid value: "${name}": service "${name}" not found`;
  }
  return undefined;
}

/** isScalingEvent: the new or stable ReplicaSet, active, says another replica count than the spec. */
function scalingEvent(ctx: RolloutContext): boolean {
  const replicas = String(replicasOf(ctx.ro));
  return [ctx.newRS, ctx.stableRS].some((rs: RS | undefined) => {
    const desired = rs?.metadata.annotations?.[DESIRED_REPLICAS];
    return rs !== undefined && (rs.spec.replicas ?? 0) > 0 && desired !== undefined && desired !== replicas;
  });
}

/** After the new ReplicaSet is created: Progressing NewReplicaSetCreated (createDesiredReplicaSet's UpdateStatus). */
function newReplicaSetCondition(ctx: RolloutContext, rs: RS): void {
  const s: RolloutStatus = structuredClone(ctx.ro.status ?? {});
  const c = newCondition(
    'Progressing',
    'True',
    'NewReplicaSetCreated',
    `Created new replica set "${rs.metadata.name ?? ''}"`,
  );
  ctx.clock.set(`progress/${c.lastUpdateTime}`, ctx.now);
  setCondition(s, c);
  const copy = structuredClone(
    ctx.store.get('Rollout', ctx.obj.metadata.namespace, ctx.obj.metadata.name) ?? ctx.obj,
  );
  copy['status'] = s;
  ctx.obj = ctx.store.put(copy);
}

function reconcile(ctx: RolloutContext): void {
  const workloadError = resolveWorkload(ctx);
  const error =
    workloadError !== undefined
      ? `spec.workloadRef: Invalid value: ${goObjectRef(ctx.ro)}: ${workloadError}`
      : validationError(ctx);
  if (error) return invalidSpec(ctx, error);
  if (ctx.ro.spec.replicas === undefined) {
    const copy = structuredClone(ctx.obj);
    (copy['spec'] as { replicas?: number }).replicas = 1;
    ctx.store.put(copy);
    return;
  }
  Object.assign(ctx, classify(ctx.store, ctx.obj, ctx.ro));
  if (!ctx.newRS) {
    const created = createNewRS(ctx);
    if (created) newReplicaSetCondition(ctx, created);
    return;
  }
  if (
    ctx.ro.status?.stableRS &&
    ctx.ro.status.stableRS === ctx.ro.status.currentPodHash &&
    ctx.ro.status.abort
  )
    ctx.pause.removeAbort = true;
  if (checkPausedConditions(ctx)) return;
  const blueGreen = ctx.ro.spec.strategy?.blueGreen !== undefined;
  if (scalingEvent(ctx)) return blueGreen ? blueGreenScalingEvent(ctx) : canaryScalingEvent(ctx);
  if (blueGreen) rolloutBlueGreen(ctx);
  else rolloutCanary(ctx);
}

/** Creates the Argo Rollouts controller. */
export function rolloutController(mgr: ControllerContext): Controller {
  const { store } = mgr;
  const dirty = new Set<string>();
  const clock = new Map<string, number>();
  const keyOf = (o: SimObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  return {
    name: 'argo-rollouts',
    observe(e) {
      const o = e.object;
      if (e.kind === 'Rollout' && e.type !== 'DELETED') dirty.add(keyOf(o));
      else if (e.kind === 'ReplicaSet') {
        const ref = o.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'Rollout');
        if (ref) dirty.add(`${o.metadata.namespace ?? ''}/${ref.name}`);
      } else if (
        (e.kind === 'CustomResourceDefinition' && o.metadata.name === CRD) ||
        e.kind === 'Service' ||
        e.kind === 'Deployment'
      ) {
        for (const r of store.list(
          'Rollout',
          e.kind === 'CustomResourceDefinition' ? undefined : o.metadata.namespace,
        ))
          dirty.add(keyOf(r));
      }
    },
    sync() {
      if (dirty.size === 0) return false;
      const keys = [...dirty];
      dirty.clear();
      if (!store.get('CustomResourceDefinition', undefined, CRD)) return false;
      for (const key of keys) {
        const obj = store.getByKey('Rollout', key);
        if (!obj || obj.metadata.deletionTimestamp) continue;
        const ctx: RolloutContext = {
          store,
          obj,
          ro: obj as unknown as Rollout,
          allRSs: [],
          otherRSs: [],
          pause: { add: [], remove: [], clear: false, addAbort: false, removeAbort: false },
          now: simNow(),
          timeScale: mgr.timeScale,
          requeueAfter: (seconds) => mgr.after(Math.max(0.05, seconds), () => dirty.add(key)),
          clock,
        };
        reconcile(ctx);
      }
      return dirty.size > 0;
    },
  };
}
