/**
 * `npm run render-deploy`: writes deploy/, deploy/owner-settings/rbac.yaml and
 * overlays/namespaced/namespaces.yaml from charts/rollout-doctor (scripts/chart-render.ts).
 * `--check` writes nothing and exits 1 naming each file that differs.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { CHART, leftovers, renderDeploy, staleFiles } from './chart-render.js';

async function main(argv: readonly string[]): Promise<number> {
  const files = await renderDeploy();
  if (argv.includes('--check')) {
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
