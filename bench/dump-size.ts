/**
 * `rollout-doctor diagnose --from-file` on large dumps: wall time and peak RSS of the
 * CLI process for 10 MB and 100 MB dumps in each form kubectl writes (a `kind: List`
 * YAML, multi-document YAML, JSON). The dumps are generated (bench/lib/dump-gen.ts)
 * into a temporary directory; each run is a fresh child `node` whose peak RSS
 * (`process.resourceUsage().maxRSS`) is reported at exit by a preloaded module.
 *
 * Part of `npm run bench`; alone: `npx tsx bench/dump-size.ts [--sizes 10,100] [--runs 1]`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildCompiled } from './lib/build.js';
import { writeDump, type DumpFormat } from './lib/dump-gen.js';
import type { Section } from './report.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MAX_RSS = fileURLToPath(new URL('./lib/max-rss.mjs', import.meta.url));
const FORMATS: DumpFormat[] = ['list-yaml', 'multi-doc-yaml', 'json'];
const MB = 2 ** 20;
/** Goal at 100 MB: under 15 s and 1 GB. */
const GOAL = { seconds: 15, rssMb: 1024 };

export interface DumpRun {
  format: DumpFormat;
  sizeMb: number;
  objects: number;
  seconds: number[];
  peakRssMb: number[];
  exitCode: number | null;
  verdict: string;
}

interface Measured {
  seconds: number;
  peakRssMb: number;
  exitCode: number | null;
  verdict: string;
}

/** One `diagnose --from-file` in a child node: wall time, peak RSS and the first finding. */
function measure(command: string[], file: string): Promise<Measured> {
  const args = [
    '--import',
    pathToFileURL(MAX_RSS).href,
    ...command,
    'diagnose',
    'deployment/vision-object-tracker',
    '-n',
    'vision',
    '--from-file',
    file,
    '-o',
    'json',
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => {
    child.once('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const kb = /max-rss-kb (\d+)/.exec(stderr)?.[1];
      let verdict: string;
      try {
        verdict = (JSON.parse(stdout) as { findings: { code: string }[] }).findings[0]?.code ?? 'none';
      } catch {
        verdict = `no JSON (${
          stderr
            .replace(/max-rss-kb \d+/, '')
            .trim()
            .slice(0, 200) || `exit ${code}`
        })`;
      }
      resolve({
        seconds: Math.round(seconds * 100) / 100,
        peakRssMb: kb ? Math.round(Number(kb) / 1024) : Number.NaN,
        exitCode: code,
        verdict,
      });
    });
  });
}

/** The CLI as production runs it (compiled, plain node), or through tsx if the build fails. */
async function cliCommand(): Promise<{ command: string[]; how: string }> {
  try {
    const compiled = await buildCompiled();
    return { command: [join(compiled, 'src/cli/main.js')], how: 'compiled (bench/lib/build.ts), plain node' };
  } catch {
    return { command: ['--import', 'tsx', 'src/cli/main.ts'], how: 'through tsx (the build failed)' };
  }
}

export async function runDumpSizeBench(
  options: { sizesMb?: number[]; runs?: number; log?: (line: string) => void } = {},
): Promise<{ runs: DumpRun[]; how: string }> {
  const log = options.log ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), 'dump-size-'));
  const { command, how } = await cliCommand();
  const runs: DumpRun[] = [];
  try {
    for (const sizeMb of options.sizesMb ?? [10, 100]) {
      for (const format of FORMATS) {
        const file = join(dir, `dump-${sizeMb}mb.${format === 'json' ? 'json' : 'yaml'}`);
        const written = await writeDump(file, format, sizeMb * MB);
        const run: DumpRun = {
          format,
          sizeMb,
          objects: written.objects,
          seconds: [],
          peakRssMb: [],
          exitCode: null,
          verdict: '',
        };
        for (let i = 0; i < (options.runs ?? 1); i += 1) {
          const m = await measure(command, file);
          run.seconds.push(m.seconds);
          run.peakRssMb.push(m.peakRssMb);
          run.exitCode = m.exitCode;
          run.verdict = m.verdict;
          log(
            `${sizeMb} MB ${format} (${written.objects} objects): ${m.seconds} s, peak RSS ${m.peakRssMb} MB, exit ${m.exitCode}, ${m.verdict}`,
          );
        }
        runs.push(run);
        await rm(file, { force: true });
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { runs, how };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export function dumpSizeSection(result: { runs: DumpRun[]; how: string }): Section {
  const rows: Section['rows'] = result.runs.map((r) => {
    const seconds = median(r.seconds);
    const rss = median(r.peakRssMb);
    const big = r.sizeMb >= 100;
    return {
      figure: `diagnose --from-file, ${r.sizeMb} MB ${r.format} (${r.objects.toLocaleString('en-US')} objects): wall time / peak RSS`,
      median: `${seconds} s / ${rss} MB`,
      comparison: `exit ${String(r.exitCode)}, first finding ${r.verdict}`,
      target: big ? `< ${GOAL.seconds} s and < ${GOAL.rssMb} MB` : '—',
      met: big
        ? seconds < GOAL.seconds && rss < GOAL.rssMb && r.verdict === 'RolloutSurgeDeadlock'
        : undefined,
    };
  });
  return {
    title: 'Large dumps: diagnose --from-file',
    rows,
    notes: [
      `runDumpSizeBench() from bench/dump-size.ts (alone: \`npx tsx bench/dump-size.ts\`): incident A plus generated Deployments, ReplicaSets, Pods, core/v1 and events.k8s.io/v1 Events and Nodes (bench/lib/dump-gen.ts), one child process per run, the CLI ${result.how}.`,
      'Wall time is from spawn to exit of the child; peak RSS is its process.resourceUsage().maxRSS at exit (bench/lib/max-rss.mjs).',
    ],
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { sizes: { type: 'string' }, runs: { type: 'string' } } });
  const sizesMb = values.sizes?.split(',').map(Number) ?? [10, 100];
  const result = await runDumpSizeBench({
    sizesMb,
    runs: values.runs ? Number(values.runs) : 1,
    log: (line) => console.log(line),
  });
  for (const row of dumpSizeSection(result).rows)
    console.log(`${row.figure}: ${row.median} (${row.comparison})`);
}
