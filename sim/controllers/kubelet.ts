/**
 * A kubelet stand-in for every node: starts bound pods (image pulled, container
 * created and started, Ready after the readiness delay), or crash-loops containers
 * that match a kube-sim rule with the kubelet's restart back-off (immediate first
 * restart, then 10s doubling to 300s), lastState.terminated, BackOff events and
 * previous-container logs. Also reports the two start-up failures a rollout can hit
 * before running: Multi-Attach errors on ReadWriteOnce claims and missing
 * ConfigMaps/Secrets.
 */
import type { Container, ContainerStatus, Pod } from '../../src/diagnosis/k8s.js';
import { nowRfc3339 } from '../defaults.js';
import type { SimObject, Store } from '../store.js';
import { crashRules, deviceHealth, ruleFor, type CrashRule } from './crash-rules.js';
import { containerDevices, reportedClaimDevices } from './dra.js';
import { recordEvent } from './events.js';
import type { Controller, ControllerContext } from './manager.js';
import { asPod, isPodActive } from './pods.js';
import { simNow } from '../clock.js';
import { resourceForKind } from '../resources.js';
import { deleteObject } from '../writes.js';

const POD_RT = resourceForKind('Pod');

const START_SECONDS = 1;
const READY_SECONDS = 1;
const MAX_BACKOFF = 300;
/** How long a container takes to stop once asked to (SIGTERM), at most the pod's grace period. */
const STOP_SECONDS = 2;

function keyOf(o: SimObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

function ipFor(uid: string): string {
  let h = 0;
  for (const ch of uid) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `10.244.${(h >>> 8) % 250}.${(h % 250) + 2}`;
}

/** A preStop hook's own duration: `sleep.seconds`, or an exec of `sleep N` (anything else returns at once). */
function preStopSeconds(c: Container): number {
  const hook = (
    c as { lifecycle?: { preStop?: { sleep?: { seconds?: number }; exec?: { command?: string[] } } } }
  ).lifecycle?.preStop;
  if (!hook) return 0;
  if (typeof hook.sleep?.seconds === 'number') return Math.max(0, hook.sleep.seconds);
  const cmd = hook.exec?.command ?? [];
  const at = cmd.findIndex((word) => word === 'sleep' || word.endsWith('/sleep'));
  const n = at >= 0 ? Number(cmd[at + 1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * How long a pod being deleted takes to stop, `left` seconds of grace remaining
 * (kubelet kuberuntime_container.go killContainer, containers in parallel): the preStop
 * hook runs first, cut off when the grace period ends (executePreStopHook), and what it
 * used comes off the grace period; the container then gets SIGTERM with what is left,
 * at least minimumGracePeriodInSeconds (2), and stops after STOP_SECONDS or at SIGKILL.
 */
export function stopSeconds(pod: Pod, left: number): number {
  const grace = Math.max(0, left);
  const each = pod.spec.containers.map((c) => {
    const hook = Math.min(preStopSeconds(c), grace);
    // Without a hook the container stops in STOP_SECONDS, or is stopped when grace runs out.
    return hook > 0
      ? hook + Math.min(STOP_SECONDS, Math.max(2, grace - hook))
      : Math.min(STOP_SECONDS, grace);
  });
  return Math.max(0, ...each);
}

/** Creates the kubelet controller. */
export function kubeletController(ctx: ControllerContext): Controller {
  const { store, logs } = ctx;
  const queue = new Set<string>();
  const started = new Set<string>();
  const blocked = new Set<string>();

  const current = (key: string, uid: string): SimObject | undefined => {
    const o = store.getByKey('Pod', key);
    return o && o.metadata.uid === uid && isPodActive(asPod(o)) ? o : undefined;
  };

  /** Rewrites one container's status and recomputes the pod's phase and conditions. */
  const updateStatus = (key: string, uid: string, mutate: (pod: Pod) => void): SimObject | undefined => {
    const o = current(key, uid);
    if (!o) return undefined;
    const copy = structuredClone(o);
    const pod = asPod(copy);
    mutate(pod);
    recomputePodStatus(pod, uid);
    return store.put(copy);
  };

  const runContainer = (
    key: string,
    uid: string,
    c: Container,
    node: string,
    rule: CrashRule | undefined,
  ): void => {
    const obj = current(key, uid);
    if (!obj) return;
    const ns = obj.metadata.namespace ?? '';
    const name = obj.metadata.name;
    const fieldPath = `spec.containers{${c.name}}`;
    // The kubelet's three events of a container start, in order.
    const starts: [reason: string, message: string][] = [
      ['Pulled', `Container image "${c.image ?? ''}" already present on machine`],
      ['Created', `Created container: ${c.name}`],
      ['Started', `Started container ${c.name}`],
    ];
    for (const [reason, message] of starts) {
      recordEvent(store, {
        involved: obj,
        type: 'Normal',
        reason,
        message,
        component: 'kubelet',
        host: node,
        fieldPath,
      });
    }
    const startedAt = nowRfc3339();
    const port = c.ports?.[0]?.containerPort;
    logs.restart(ns, name, c.name, `${startedAt} INFO starting ${c.image ?? c.name}\n`);
    updateStatus(key, uid, (pod) => {
      const prev = containerStatus(pod, c.name);
      const devices = resourcesStatus(store, pod, c.name);
      setContainer(pod, {
        name: c.name,
        image: c.image ?? '',
        imageID: `${c.image ?? ''}@sha256:${'0'.repeat(64)}`,
        ready: false,
        started: true,
        restartCount:
          prev?.state?.running === undefined && prev?.lastState?.terminated
            ? prev.restartCount
            : (prev?.restartCount ?? 0),
        state: { running: { startedAt } },
        ...(prev?.lastState ? { lastState: prev.lastState } : {}),
        containerID: `containerd://${uid.replace(/-/g, '')}${c.name.length}`,
        ...(devices ? { allocatedResourcesStatus: devices } : {}),
      } as ContainerStatus);
    });
    if (rule) {
      ctx.after(rule.afterSeconds, () => crash(key, uid, c, node, rule, startedAt));
      return;
    }
    const delay = READY_SECONDS + (c.readinessProbe?.initialDelaySeconds ?? 0);
    ctx.after(
      delay,
      () => {
        if (port) logs.append(ns, name, c.name, `${nowRfc3339()} INFO listening on :${port}\n`);
        ctx.readiness.pass(() =>
          updateStatus(key, uid, (pod) => {
            const cs = containerStatus(pod, c.name);
            if (cs?.state?.running) setContainer(pod, { ...cs, ready: true });
          }),
        );
      },
      { settles: true },
    );
  };

  const crash = (
    key: string,
    uid: string,
    c: Container,
    node: string,
    rule: CrashRule,
    startedAt: string,
  ): void => {
    const obj = current(key, uid);
    if (!obj) return;
    const ns = obj.metadata.namespace ?? '';
    const podName = obj.metadata.name;
    if (rule.log) logs.append(ns, podName, c.name, rule.log.endsWith('\n') ? rule.log : `${rule.log}\n`);
    const restarts = containerStatus(asPod(obj), c.name)?.restartCount ?? 0;
    const terminated = {
      exitCode: rule.exitCode,
      reason: rule.reason,
      ...(rule.message ? { message: rule.message } : {}),
      startedAt,
      finishedAt: nowRfc3339(),
      containerID: `containerd://${uid.replace(/-/g, '')}`,
    };
    if (restarts === 0) {
      // The kubelet restarts a container that died for the first time without delay.
      updateStatus(key, uid, (pod) => {
        const cs = containerStatus(pod, c.name);
        if (cs)
          setContainer(pod, {
            ...cs,
            ready: false,
            restartCount: 1,
            state: { running: { startedAt: nowRfc3339() } },
            lastState: { terminated },
          });
      });
      ctx.after(0.1, () => runAgain(key, uid, c, node, rule));
      return;
    }
    const backoff = Math.min(10 * 2 ** (restarts - 1), MAX_BACKOFF);
    updateStatus(key, uid, (pod) => {
      const cs = containerStatus(pod, c.name);
      if (!cs) return;
      setContainer(pod, {
        ...cs,
        ready: false,
        started: false,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off ${backoff}s restarting failed container=${c.name} pod=${podName}_${ns}(${uid})`,
          },
        },
        lastState: { terminated },
      });
    });
    const after = current(key, uid);
    if (after) {
      recordEvent(store, {
        involved: after,
        type: 'Warning',
        reason: 'BackOff',
        message: `Back-off restarting failed container ${c.name} in pod ${podName}_${ns}(${uid})`,
        component: 'kubelet',
        host: node,
        fieldPath: `spec.containers{${c.name}}`,
      });
    }
    ctx.after(backoff, () => {
      updateStatus(key, uid, (pod) => {
        const cs = containerStatus(pod, c.name);
        if (cs) setContainer(pod, { ...cs, restartCount: cs.restartCount + 1 });
      });
      runAgain(key, uid, c, node, rule);
    });
  };

  const runAgain = (key: string, uid: string, c: Container, node: string, rule: CrashRule): void => {
    const obj = current(key, uid);
    const devices = obj ? devicesOf(store, asPod(obj), c.name) : [];
    runContainer(key, uid, c, node, ruleFor(crashRules(store), node, c.image, devices) ?? rule);
  };

  const start = (key: string): void => {
    const obj = store.getByKey('Pod', key);
    if (!obj || !isPodActive(asPod(obj))) return;
    const pod = asPod(obj);
    const uid = obj.metadata.uid ?? '';
    const node = pod.spec.nodeName;
    if (!node || started.has(uid) || !kubeletRuns(node)) return;
    const blocker = startupBlocker(store, started, obj);
    if (blocker) {
      blocked.add(key);
      const failed = blocker.component === 'kubelet';
      recordEvent(store, {
        involved: obj,
        type: 'Warning',
        reason: failed ? 'Failed' : 'FailedAttachVolume',
        message: blocker.event,
        component: blocker.component,
        ...(failed ? { host: node } : {}),
      });
      const copy = structuredClone(obj);
      const p = asPod(copy);
      const status = (p.status ??= {});
      status.hostIP = ipFor(node);
      status.startTime ??= nowRfc3339();
      status.containerStatuses = p.spec.containers.map((c) => ({
        name: c.name,
        image: c.image ?? '',
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: {
          waiting: { reason: blocker.reason, ...(blocker.message ? { message: blocker.message } : {}) },
        },
      }));
      if (JSON.stringify(copy['status']) !== JSON.stringify(obj['status'])) store.put(copy);
      return;
    }
    blocked.delete(key);
    started.add(uid);
    const rules = crashRules(store);
    ctx.after(
      START_SECONDS,
      () => {
        const o = current(key, uid);
        if (!o) return;
        updateStatus(key, uid, (p) => {
          const status = (p.status ??= {});
          status.hostIP = ipFor(node);
          status.startTime ??= nowRfc3339();
        });
        for (const c of asPod(o).spec.containers)
          runContainer(key, uid, c, node, ruleFor(rules, node, c.image, devicesOf(store, asPod(o), c.name)));
      },
      { settles: true },
    );
  };

  /**
   * The driver's health report changed (kube-sim devices.yaml): as the kubelet does on a
   * health update from a DRA plugin, every running pod's allocatedResourcesStatus is
   * rewritten, not only at the next container start.
   */
  const refreshHealth = (): void => {
    for (const o of store.list('Pod')) {
      const pod = asPod(o);
      const uid = o.metadata.uid ?? '';
      if (!pod.spec.nodeName || !started.has(uid) || !isPodActive(pod)) continue;
      if (!(pod.spec.resourceClaims ?? []).length) continue;
      const next = (pod.status?.containerStatuses ?? []).map((cs) => {
        const devices = resourcesStatus(store, pod, cs.name);
        const { allocatedResourcesStatus: _old, ...rest } = cs;
        return devices ? { ...rest, allocatedResourcesStatus: devices } : rest;
      });
      if (JSON.stringify(next) === JSON.stringify(pod.status?.containerStatuses ?? [])) continue;
      updateStatus(keyOf(o), uid, (p) => {
        (p.status ??= {}).containerStatuses = next as ContainerStatus[];
      });
    }
  };
  let healthChanged = false;

  /**
   * A pod being deleted gracefully: its kubelet stops the containers (they take a moment,
   * at most the grace period left) and then deletes the pod for good, as the kubelet's
   * status manager does once nothing runs (grace period 0; finalizers still hold it). A
   * node whose kubelet is down never confirms, so its pods stay Terminating.
   */
  const terminating = new Set<string>();
  const terminate = (o: SimObject): void => {
    const uid = o.metadata.uid ?? '';
    if (terminating.has(uid) || !kubeletRuns(asPod(o).spec.nodeName ?? '')) return;
    terminating.add(uid);
    const key = keyOf(o);
    const left = (Date.parse(o.metadata.deletionTimestamp ?? '') - simNow()) / 1000;
    const stop = stopSeconds(asPod(o), Number.isFinite(left) ? left : STOP_SECONDS);
    ctx.after(
      stop,
      () => {
        terminating.delete(uid);
        const now = store.getByKey('Pod', key);
        if (!now || now.metadata.uid !== uid || !now.metadata.deletionTimestamp || !POD_RT) return;
        deleteObject(store, POD_RT, now.metadata.namespace, now.metadata.name, { gracePeriodSeconds: 0 });
      },
      { settles: true },
    );
  };

  /** The node's kubelet posts status: its Ready condition is True (or the node reports none). */
  const kubeletRuns = (nodeName: string): boolean => {
    const node = store.get('Node', undefined, nodeName) as
      { status?: { conditions?: { type: string; status: string }[] } } | undefined;
    const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
    return ready === undefined || ready.status === 'True';
  };

  return {
    name: 'kubelet',
    observe(event) {
      if (event.kind === 'ConfigMap' || event.kind === 'Secret') for (const k of blocked) queue.add(k);
      if (
        event.kind === 'ConfigMap' &&
        event.object.metadata.namespace === 'kube-system' &&
        event.object.metadata.name === 'kube-sim'
      )
        healthChanged = true;
      if (event.kind !== 'Pod') return;
      const o = event.object;
      if (event.type === 'DELETED') {
        started.delete(o.metadata.uid ?? '');
        blocked.delete(keyOf(o));
        logs.forgetPod(o.metadata.namespace ?? '', o.metadata.name);
        for (const k of blocked) queue.add(k);
        return;
      }
      const pod = asPod(o);
      if (o.metadata.deletionTimestamp && pod.spec.nodeName) {
        terminate(o);
        return;
      }
      if (!pod.spec.nodeName || started.has(o.metadata.uid ?? '')) return;
      if (event.type === 'ADDED' && pod.status?.phase === 'Running' && pod.status.containerStatuses?.length) {
        // Pods that arrive running (scenario snapshots) are adopted as they are.
        started.add(o.metadata.uid ?? '');
        for (const c of pod.spec.containers)
          logs.restart(
            o.metadata.namespace ?? '',
            o.metadata.name,
            c.name,
            `${nowRfc3339()} INFO running ${c.image ?? c.name}\n`,
          );
        return;
      }
      if (!event.old || !asPod(event.old).spec.nodeName) queue.add(keyOf(o));
    },
    sync() {
      if (healthChanged) {
        healthChanged = false;
        refreshHealth();
      }
      if (queue.size === 0) return false;
      const keys = [...queue];
      queue.clear();
      for (const k of keys) start(k);
      return queue.size > 0;
    },
  };
}

/** The pod's phase, IP and conditions from its container statuses, as the kubelet reports them. */
function recomputePodStatus(pod: Pod, uid: string): void {
  const status = (pod.status ??= {});
  const statuses = status.containerStatuses ?? [];
  const allReady = statuses.length === pod.spec.containers.length && statuses.every((c) => c.ready);
  const anyRunning = statuses.some((c) => c.state?.running || c.lastState?.terminated);
  const now = nowRfc3339();
  const setCond = (type: string, ok: boolean, reason?: string, message?: string): void => {
    const conditions = (status.conditions ??= []);
    const existing = conditions.find((c) => c.type === type);
    const value = ok ? 'True' : 'False';
    const next = {
      type,
      status: value,
      lastProbeTime: null,
      lastTransitionTime: existing?.status === value ? existing.lastTransitionTime : now,
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
    };
    status.conditions = [...conditions.filter((c) => c.type !== type), next as never];
  };
  const unready = statuses.filter((c) => !c.ready).map((c) => c.name);
  const msg = unready.length ? `containers with unready status: [${unready.join(' ')}]` : undefined;
  setCond('PodReadyToStartContainers', true);
  setCond('Initialized', true);
  setCond('Ready', allReady, allReady ? undefined : 'ContainersNotReady', msg);
  setCond('ContainersReady', allReady, allReady ? undefined : 'ContainersNotReady', msg);
  const order = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
  status.conditions = [...(status.conditions ?? [])].sort(
    (a, b) => order.indexOf(a.type) - order.indexOf(b.type),
  );
  if (anyRunning) {
    status.phase = 'Running';
    status.podIP = ipFor(uid);
    (status as { podIPs?: { ip: string }[] }).podIPs = [{ ip: status.podIP }];
  }
}

function setContainer(pod: Pod, next: ContainerStatus): void {
  const status = (pod.status ??= {});
  const list = (status.containerStatuses ??= []);
  status.containerStatuses = [...list.filter((c) => c.name !== next.name), next].sort(
    (a, b) =>
      pod.spec.containers.findIndex((c) => c.name === a.name) -
      pod.spec.containers.findIndex((c) => c.name === b.name),
  );
}

/** The DRA devices a container uses (`<driver>/<pool>/<device>`): its requests' devices only. */
function devicesOf(store: Store, pod: Pod, container: string): string[] {
  return containerDevices(store, pod, container).flatMap((c) => c.devices);
}

/**
 * allocatedResourcesStatus as the kubelet writes it for DRA claims, only while the
 * driver reports health (devices.yaml): under each `claim:<name>[/<request>]` every
 * device of the claim (reportedClaimDevices), named by the CDI id the driver gives
 * for it or else `<driver>/<pool>/<device>`, each id once; Unknown for a device the
 * driver does not list.
 */
function resourcesStatus(
  store: Store,
  pod: Pod,
  container: string,
): ContainerStatus['allocatedResourcesStatus'] {
  const report = deviceHealth(store);
  if (!report) return undefined;
  const out = reportedClaimDevices(store, pod, container)
    .filter((c) => c.devices.length > 0)
    .map((c) => {
      const resources = new Map<string, string>();
      for (const device of c.devices) {
        const said = report.get(device);
        const resourceID = said?.cdi ?? device;
        if (!resources.has(resourceID)) resources.set(resourceID, said?.health ?? 'Unknown');
      }
      return {
        name: c.name,
        resources: [...resources].map(([resourceID, health]) => ({ resourceID, health })),
      };
    });
  return out.length > 0 ? out : undefined;
}

function containerStatus(pod: Pod, name: string): ContainerStatus | undefined {
  return pod.status?.containerStatuses?.find((c) => c.name === name);
}

/** Why the pod's containers cannot start yet: a Multi-Attach error, a ConfigMap or Secret missing. */
function startupBlocker(
  store: Store,
  started: ReadonlySet<string>,
  obj: SimObject,
): { reason: string; message: string; event: string; component: string } | undefined {
  const pod = asPod(obj);
  const ns = obj.metadata.namespace;
  for (const v of pod.spec.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (!claim) continue;
    const pvc = store.get('PersistentVolumeClaim', ns, claim);
    const modes = (pvc?.['spec'] as { accessModes?: string[] } | undefined)?.accessModes ?? [];
    if (!modes.includes('ReadWriteOnce')) continue;
    const users = store
      .list('Pod', ns)
      .filter(
        (p) =>
          p.metadata.uid !== obj.metadata.uid &&
          isPodActive(asPod(p)) &&
          asPod(p).spec.nodeName &&
          asPod(p).spec.nodeName !== pod.spec.nodeName &&
          started.has(p.metadata.uid ?? ''),
      )
      .filter((p) =>
        (asPod(p).spec.volumes ?? []).some((pv) => pv.persistentVolumeClaim?.claimName === claim),
      );
    if (users.length > 0) {
      const volume =
        (pvc?.['spec'] as { volumeName?: string } | undefined)?.volumeName ??
        `pvc-${pvc?.metadata.uid ?? claim}`;
      return {
        reason: 'ContainerCreating',
        message: '',
        event: `Multi-Attach error for volume "${volume}" Volume is already used by pod(s) ${users.map((u) => u.metadata.name).join(', ')}`,
        component: 'attachdetach-controller',
      };
    }
  }
  for (const c of pod.spec.containers) {
    for (const e of c.env ?? []) {
      const cm = e.valueFrom?.configMapKeyRef;
      if (cm && !cm.optional && !store.get('ConfigMap', ns, cm.name))
        return {
          reason: 'CreateContainerConfigError',
          message: `configmap "${cm.name}" not found`,
          event: `Error: configmap "${cm.name}" not found`,
          component: 'kubelet',
        };
      const sec = e.valueFrom?.secretKeyRef;
      if (sec && !sec.optional && !store.get('Secret', ns, sec.name))
        return {
          reason: 'CreateContainerConfigError',
          message: `secret "${sec.name}" not found`,
          event: `Error: secret "${sec.name}" not found`,
          component: 'kubelet',
        };
    }
    for (const f of c.envFrom ?? []) {
      if (f.configMapRef && !store.get('ConfigMap', ns, f.configMapRef.name))
        return {
          reason: 'CreateContainerConfigError',
          message: `configmap "${f.configMapRef.name}" not found`,
          event: `Error: configmap "${f.configMapRef.name}" not found`,
          component: 'kubelet',
        };
      if (f.secretRef && !store.get('Secret', ns, f.secretRef.name))
        return {
          reason: 'CreateContainerConfigError',
          message: `secret "${f.secretRef.name}" not found`,
          event: `Error: secret "${f.secretRef.name}" not found`,
          component: 'kubelet',
        };
    }
  }
  return undefined;
}
