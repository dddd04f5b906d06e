/**
 * `npm run sim -- --scenario FILE [--scenario FILE ...] [--port P] [--write-kubeconfig F] [--time-scale N] [--latency-ms N]`
 * Serves the Kubernetes API simulator on 127.0.0.1 until interrupted; `--help` prints the usage.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startSimulator } from './index.js';
import { CONTROLLER_WORDS } from './controllers/index.js';
import { ScenarioError } from './scenario.js';

const USAGE = `Usage: npm run sim -- --scenario FILE [--scenario FILE ...] [--port P] [--write-kubeconfig F] [--time-scale N] [--latency-ms N]

Serves the Kubernetes API simulator (test and demo tooling) on 127.0.0.1 until
interrupted (Ctrl-C).
  --scenario FILE         Kubernetes YAML to start from: a seed (sim/scenarios/*.yaml) or a
                          real dump (kubectl get ... -o yaml, a List); required, repeatable:
                          several files make one cluster (the first copy of an object kept)
  --port P                port to listen on (default: a free one, printed at start)
  --write-kubeconfig F    write a kubeconfig for kubectl and rollout-doctor to F
  --time-scale N          controllers run N times faster: back-offs, progress deadline, delays (default 1)
  --latency-ms N          add N milliseconds to every API request, as for benchmarks (default 0)
  -h, --help              this text

Crash rules: ConfigMap kube-sim in namespace kube-system, key rules.yaml: a list of
  {node, image, exitCode, reason, message, log[, device]}; a container whose image starts
  with image, on node (holding DRA device <driver>/<pool>/<device>), terminates that way
  (sim/scenarios/crashloop-node.yaml has one). Key devices.yaml: the DRA driver's health
  report, a list of {device, health[, cdi]} (cdi: the CDI id the kubelet then reports for it;
  each claim:<name>/<request> entry lists every device of the claim, as the kubelet does).
Controllers, what the simulator runs (without the rollouts.argoproj.io CRD, discovery
lists no Rollouts):
${Object.values(CONTROLLER_WORDS)
  .map((words) => `  - ${words}`)
  .join('\n')}
Admission: ResourceQuota and LimitRange are enforced on create. Any other kind a dump holds is
  stored and served as it is (get, list, watch, create, patch, delete; no controller),
  under the resource its CRD declares, else the one kubectl would guess from the kind;
  custom resources take JSON and merge patches, not strategic merge (415). Refused: an
  object without kind or metadata.name, an unknown kind without apiVersion (exit 2).
Examples:
  npm run sim -- --scenario sim/scenarios/gpu-deadlock.yaml --write-kubeconfig /tmp/sim.kubeconfig
  kubectl --kubeconfig /tmp/sim.kubeconfig get pods -A
  # the demo's cluster (npm run demo): both seed incidents in one cluster
  npm run sim -- --scenario sim/scenarios/gpu-deadlock.yaml --scenario sim/scenarios/crashloop-node.yaml
  # a real cluster's state
  kubectl get deploy,rs,pods,nodes,events,resourcequotas -A -o yaml > dump.yaml
  npm run sim -- --scenario dump.yaml
`;

const argsSchema = z.object({
  scenario: z
    .array(z.string().min(1, '--scenario needs a FILE'), { error: '--scenario FILE is required' })
    .min(1, '--scenario FILE is required'),
  port: z.coerce.number().int().min(0).max(65535).default(0),
  'write-kubeconfig': z.string().optional(),
  'time-scale': z.coerce.number().positive().default(1),
  'latency-ms': z.coerce.number().nonnegative().default(0),
});

async function main(): Promise<void> {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        scenario: { type: 'string', multiple: true },
        port: { type: 'string' },
        'write-kubeconfig': { type: 'string' },
        'time-scale': { type: 'string' },
        'latency-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // An unknown option or a missing value: one line and the usage, no stack trace.
    console.error(`sim: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(
      `sim: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}\n\n${USAGE}`,
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
    `Kubernetes API simulator serving ${args.scenario.join(' + ')} at ${sim.url}` +
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
  // A scenario that cannot be read, parsed or loaded is bad input (2), like a bad option.
  process.exit(err instanceof ScenarioError ? 2 : 1);
});
