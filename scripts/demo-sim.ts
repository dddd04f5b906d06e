/**
 * `tsx scripts/demo-sim.ts [--port P] [--time-scale N] [--write-kubeconfig F]`
 * Serves the Kubernetes API simulator with both seed incidents in one cluster (the
 * GPU tracker in namespace vision, the checkout service in namespace shop) until
 * interrupted. docker-compose.yml's `demo` profile runs it; `npm run sim` serves one
 * scenario file instead.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startSimulator } from '../sim/index.js';
import { demoScenarioObjects } from './demo-scenario.js';

const argsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(6443),
  'time-scale': z.coerce.number().positive().default(1),
  'write-kubeconfig': z.string().min(1).optional(),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'time-scale': { type: 'string' },
      'write-kubeconfig': { type: 'string' },
    },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(
      `demo-sim: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
    process.exit(2);
  }
  const args = parsed.data;
  const sim = await startSimulator({
    scenario: await demoScenarioObjects(),
    port: args.port,
    timeScale: args['time-scale'],
  });
  const kubeconfig = args['write-kubeconfig'];
  if (kubeconfig) await sim.writeKubeconfig(kubeconfig);
  console.log(
    `Kubernetes API simulator (both seed incidents) at ${sim.url}${kubeconfig ? `, kubeconfig ${kubeconfig}` : ''}`,
  );
  const shutdown = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(`demo-sim: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
