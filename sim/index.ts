/**
 * Programmatic entry of the Kubernetes API simulator (test and demo tooling, never
 * imported by src/). Starts an HTTP server on 127.0.0.1 speaking the
 * Kubernetes REST API over an in-memory store, with controllers that roll out
 * Deployments, schedule pods and run them like a kubelet.
 *
 * @example
 *   const sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 20 });
 *   await sim.settle();
 *   await sim.writeKubeconfig('/tmp/kubeconfig');
 */
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createControllerManager } from './controllers/manager.js';
import { startControllers } from './controllers/index.js';
import type { ReadinessGate } from './controllers/readiness-gate.js';
import { LogStore } from './logs.js';
import { applyDirect, loadScenario, readScenarioFile, readScenarioFiles } from './scenario.js';
import { typeForKind } from './stored-kinds.js';
import { FaultList, type FaultRule } from './server/faults.js';
import { createApiServer, type RecordedRequest } from './server/http.js';
import { Store } from './store.js';
import { deleteObject } from './writes.js';

export type { FaultRule } from './server/faults.js';
export type { RecordedRequest } from './server/http.js';

export interface SimOptions {
  /**
   * Path to a YAML file (multi-doc or List), several paths (one cluster, the first
   * occurrence of an object kept: sim/scenario.ts readScenarioFiles), or parsed objects.
   */
  scenario: string | readonly string[] | object[];
  /** Default 0 (a free port); always binds 127.0.0.1. */
  port?: number;
  /** Controllers run this many times faster (back-off, progress deadline, delays). */
  timeScale?: number;
  /** Added to every API request (benchmarks). */
  latencyMs?: number;
  /** Run no controllers (a static API server over the scenario). */
  controllers?: boolean;
  /** PEM of the client certificate and key presented to webhooks (AdmissionConfiguration's kubeConfigFile). */
  webhookClient?: { cert: string; key: string };
}

export interface Simulator {
  url: string;
  kubeconfig: string;
  writeKubeconfig(path: string): Promise<void>;
  requests: RecordedRequest[];
  clearRequests(): void;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  get(kind: string, namespace: string | undefined, name: string): object | undefined;
  list(kind: string, namespace?: string): object[];
  apply(obj: object): object;
  /** Deletes an object at once, as an API DELETE would (tests: someone else's deletion at an exact moment). */
  delete(kind: string, namespace: string | undefined, name: string): void;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  settle(): Promise<void>;
  /** Stops the controllers' time until resumeClock (sim/controllers/manager.ts): no timer fires meanwhile. */
  pauseClock(): void;
  resumeClock(): void;
  /**
   * What an API server restart looks like to clients: every open connection (watches
   * included) is cut, nothing answers for `downMs`, then the same address serves the
   * same state again (etcd keeps it), so watches resume from their resourceVersion.
   */
  restartApiServer(options?: { downMs?: number }): Promise<void>;
  /** Holds new containers not-Ready until released (sim/controllers/readiness-gate.ts). */
  readiness: Pick<ReadinessGate, 'hold' | 'release' | 'waiting'>;
  /** Calls `listener` after every change to the store; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

/** A kubeconfig for the simulator: insecure-skip-tls-verify because it serves plain http. */
export function kubeconfigFor(url: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: sim',
    '  cluster:',
    `    server: ${url}`,
    '    insecure-skip-tls-verify: true',
    'users:',
    '- name: sim',
    '  user:',
    '    token: sim-token',
    'contexts:',
    '- name: sim',
    '  context:',
    '    cluster: sim',
    '    user: sim',
    '    namespace: default',
    'current-context: sim',
    '',
  ].join('\n');
}

async function scenarioObjects(scenario: SimOptions['scenario']): Promise<readonly unknown[]> {
  if (typeof scenario === 'string') return readScenarioFile(scenario);
  if (scenario.every((s): s is string => typeof s === 'string')) return readScenarioFiles(scenario);
  return scenario;
}

/** Starts the simulator and resolves once it is listening. */
export async function startSimulator(options: SimOptions): Promise<Simulator> {
  const store = new Store();
  if (options.webhookClient) store.webhookClient = options.webhookClient;
  const logs = new LogStore();
  const faults = new FaultList();
  let requests: RecordedRequest[] = [];
  const objects = await scenarioObjects(options.scenario);
  loadScenario(store, objects);
  const kindName = (kind: string): string => typeForKind(store, kind)?.kind ?? kind;
  const manager = createControllerManager(store, logs, options.timeScale ?? 1);
  if (options.controllers !== false) startControllers(manager);
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const recorder: RecordedRequest[] = [];
  const server = createApiServer({
    store,
    logs,
    faults,
    requests: recorder,
    latencyMs: options.latencyMs ?? 0,
    stopped,
  });
  requests = recorder;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const kubeconfig = kubeconfigFor(url);
  return {
    url,
    kubeconfig,
    writeKubeconfig: (path) => writeFile(path, kubeconfig, { mode: 0o600 }),
    get requests() {
      return requests;
    },
    clearRequests() {
      requests.length = 0;
    },
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    get: (kind, namespace, name) => {
      const o = store.get(kindName(kind), namespace, name);
      return o ? structuredClone(o) : undefined;
    },
    list: (kind, namespace) => store.list(kindName(kind), namespace).map((o) => structuredClone(o)),
    apply: (obj) => structuredClone(applyDirect(store, obj)),
    delete: (kind, namespace, name) => {
      const rt = typeForKind(store, kind);
      if (!rt) throw new Error(`unknown kind ${kind}`);
      deleteObject(store, rt, namespace, name);
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    settle: () => manager.settle(),
    pauseClock: () => manager.pauseClock(),
    resumeClock: () => manager.resumeClock(),
    readiness: manager.context.readiness,
    onChange: (listener) => store.subscribe(() => listener()),
    async restartApiServer(restart = {}) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise((r) => setTimeout(r, restart.downMs ?? 0));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    },
    async close() {
      manager.stop();
      stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
