/**
 * `npm run render-deploy`: writes deploy/, deploy/owner-settings/rbac.yaml and
 * overlays/namespaced/namespaces.yaml from charts/rollout-doctor (scripts/chart-render.ts).
 * `--check` writes nothing and exits 1 naming each file that differs. Either way it exits
 * 1 when the rendered RBAC or admission policy leaves out a registered workload kind
 * (scripts/workload-grants.ts).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { WORKLOAD_APIS } from '../src/diagnosis/workloads/kinds.js';
import { CHART, leftovers, renderDeploy, staleFiles } from './chart-render.js';
import { scriptArgs } from './script-args.js';
import { workloadGrantProblems } from './workload-grants.js';

const USAGE = `Usage: npm run render-deploy [-- --check]

Writes deploy/, deploy/owner-settings/rbac.yaml and overlays/namespaced/namespaces.yaml
from ${CHART} with the bundled helm (scripts/k8s-tools.ts).
  --check      write nothing; exit 1 naming each file that differs from what the chart renders
  -h, --help   this text
`;

async function main(argv: string[]): Promise<number> {
  const args = scriptArgs('render-deploy', USAGE, { check: { type: 'boolean', default: false } }, argv);
  if ('exit' in args) return args.exit;
  const files = await renderDeploy();
  const grantProblems = workloadGrantProblems(
    WORKLOAD_APIS,
    files.get('deploy/worker-rbac.yaml') ?? '',
    files.get('deploy/admission-policy.yaml') ?? '',
  );
  for (const problem of grantProblems) console.error(`${problem} (a registered workload kind; ${CHART})`);
  if (grantProblems.length > 0) return 1;
  if (args.values.check) {
    const stale = staleFiles(files);
    for (const p of stale) console.error(`${p}: differs from what ${CHART} renders (npm run render-deploy)`);
    return stale.length === 0 ? 0 : 1;
  }
  for (const p of leftovers(files)) rmSync(p);
  for (const [p, text] of files) writeFileSync(p, text);
  console.log(`rendered ${files.size} files from ${CHART}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
