/**
 * `npm run sim -- --scenario FILE [--port P] [--write-kubeconfig F] [--time-scale N] [--latency-ms N]`
 * Serves the Kubernetes API simulator on 127.0.0.1 until interrupted.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startSimulator } from './index.js';

const argsSchema = z.object({
  scenario: z.string().min(1, '--scenario FILE is required'),
  port: z.coerce.number().int().min(0).max(65535).default(0),
  'write-kubeconfig': z.string().optional(),
  'time-scale': z.coerce.number().positive().default(1),
  'latency-ms': z.coerce.number().nonnegative().default(0),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string' },
      port: { type: 'string' },
      'write-kubeconfig': { type: 'string' },
      'time-scale': { type: 'string' },
      'latency-ms': { type: 'string' },
    },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(
      `sim: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}`,
    );
    process.exit(2);
  }
  const args = parsed.data;
  const sim = await startSimulator({
    scenario: args.scenario,
    port: args.port,
    timeScale: args['time-scale'],
    latencyMs: args['latency-ms'],
  });
  const kubeconfigPath = args['write-kubeconfig'];
  if (kubeconfigPath) await sim.writeKubeconfig(kubeconfigPath);
  console.log(
    `Kubernetes API simulator serving ${args.scenario} at ${sim.url}` +
      (kubeconfigPath
        ? ` (kubeconfig: ${kubeconfigPath}; try: kubectl --kubeconfig ${kubeconfigPath} get pods -A)`
        : ''),
  );
  const shutdown = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

void main().catch((err: unknown) => {
  console.error(`sim: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
