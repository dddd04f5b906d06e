/**
 * A simulator with a client of ours talking to it over a kubeconfig file, as the CLI
 * and the worker would; fast retries, as tests want.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator, type SimOptions } from '../../sim/index.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';

export interface SimClient {
  sim: Simulator;
  client: KubeClient;
  /** The kubeconfig file the client reads (kubectl can read it too). */
  kubeconfig: string;
  /** Stops the simulator and removes the kubeconfig's folder. */
  close(): Promise<void>;
}

export async function startSimClient(options: SimOptions, prefix: string): Promise<SimClient> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const sim = await startSimulator(options);
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, sim.kubeconfig);
  const client = createKubeClient({ kubeconfig, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
  return {
    sim,
    client,
    kubeconfig,
    close: async () => {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
