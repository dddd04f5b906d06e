/**
 * The manual alternative: the kubectl commands an engineer runs to reach the same
 * verdict on the stuck GPU rollout, with the real kubectl on PATH against the same
 * simulator (same cluster, 20 ms per request). Counts the API requests the simulator
 * saw and the wall time of the commands themselves (no human reading time).
 * One session shares a fresh discovery cache, as a first look at a cluster would.
 *
 * Run: npx tsx bench/kubectl-manual.ts
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startSimulator } from '../sim/index.js';
import { TARGET, generateCluster } from './collector.js';
import { median } from './lib/stats.js';

const run = promisify(execFile);

export interface ManualSession {
  commands: { argv: string[]; requests: number; ms: number }[];
  requests: number;
  ms: number;
}

export interface ManualBench {
  sessions: ManualSession[];
  medianRequests: number;
  medianMs: number;
  commandCount: number;
}

/** The commands, in the order an engineer would run them; later ones use what earlier ones showed. */
function commandsFor(pendingPod: string): string[][] {
  const ns = ['-n', TARGET.namespace];
  return [
    ['describe', 'deployment', TARGET.name, ...ns],
    ['get', 'replicasets', '-l', `app=${TARGET.name}`, ...ns],
    ['get', 'pods', '-l', `app=${TARGET.name}`, '-o', 'wide', ...ns],
    ['describe', 'pod', pendingPod, ...ns],
    ['get', 'events', '--field-selector', `involvedObject.name=${pendingPod}`, ...ns],
    ['describe', 'node', 'gpu-node-1'],
  ];
}

/** Runs `sessions` manual sessions against one simulator (latency 20 ms by default). */
export async function runManualBench(
  options: { sessions?: number; latencyMs?: number } = {},
): Promise<ManualBench> {
  const sim = await startSimulator({
    scenario: generateCluster({ nodes: 10, pods: 100 }),
    controllers: false,
    latencyMs: options.latencyMs ?? 20,
  });
  const dir = await mkdtemp(join(tmpdir(), 'kubectl-bench-'));
  try {
    const kubeconfig = join(dir, 'kubeconfig');
    await sim.writeKubeconfig(kubeconfig);
    const pending = sim
      .list('Pod', TARGET.namespace)
      .map((p) => p as { metadata: { name: string }; status?: { phase?: string } })
      .find((p) => p.status?.phase === 'Pending');
    if (!pending) throw new Error('the bench cluster has no pending pod');
    const sessions: ManualSession[] = [];
    for (let s = 0; s < (options.sessions ?? 3); s += 1) {
      const cache = join(dir, `cache-${s}`);
      const commands: ManualSession['commands'] = [];
      for (const argv of commandsFor(pending.metadata.name)) {
        const before = sim.requests.length;
        const started = performance.now();
        await run('kubectl', [...argv, '--kubeconfig', kubeconfig, '--cache-dir', cache], {
          timeout: 30_000,
          env: { PATH: process.env['PATH'] ?? '', HOME: dir },
        });
        commands.push({
          argv: ['kubectl', ...argv],
          requests: sim.requests.length - before,
          ms: Math.round(performance.now() - started),
        });
      }
      sessions.push({
        commands,
        requests: commands.reduce((n, c) => n + c.requests, 0),
        ms: commands.reduce((n, c) => n + c.ms, 0),
      });
    }
    return {
      sessions,
      medianRequests: median(sessions.map((s) => s.requests)),
      medianMs: median(sessions.map((s) => s.ms)),
      commandCount: sessions[0]?.commands.length ?? 0,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
    await sim.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runManualBench().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
