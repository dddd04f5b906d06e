/**
 * `npm run bench`: runs every benchmark one after another and writes
 * docs/benchmarks.md. Loopback only; each benchmark starts and stops its own
 * processes and is bounded in count and time. A benchmark that fails is reported
 * as such and the others still run.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runFloodBench } from './alert-flood.js';
import { runAlertBench, type AlertBenchResult } from './alerts.js';
import { runAnalyzerBench } from './analyzers.js';
import { draRequestsSection, runDraRequestsBench } from './dra-requests.js';
import { dumpSizeSection, runDumpSizeBench } from './dump-size.js';
import { earlyWarningSection, runEarlyWarningBench } from './early-warning.js';
import { failoverSection, runFailoverBench } from './failover.js';
import { runStallBench, stallSection } from './redis-stall.js';
import { capacitySection, runRedisCapacityBench } from './redis-capacity.js';
import { LATENCY_MS, runE2eBench, type E2eBench } from './e2e-diagnosis.js';
import { runManualBench } from './kubectl-manual.js';
import { forwardSection, runForwardBench } from './forward-model.js';
import { machineInfo } from './machine.js';
import { scriptArgs } from '../scripts/script-args.js';
import { renderReport, type Section } from './report.js';
import {
  ackSection,
  alertSection,
  analyzerSection,
  e2eSection,
  floodSection,
  manualSection,
} from './sections.js';
import { runSimScaleBench, simScaleSection } from './sim-scale.js';
import { runAckBench } from './slack-ack.js';
import { runSteppedWalkBench, steppedWalkSection } from './stepped-walk.js';
import { runTeamsBench, teamsSection } from './teams.js';
import { runWorkloadKindsBench, workloadKindsSection } from './workload-kinds.js';
import { checkAdmissionSection, runCheckAdmissionBench } from './check-admission.js';
import { runWatchRssBench, watchRssSection } from './watch-rss.js';

const USAGE = `Usage: npm run bench

Runs every benchmark one after another (loopback only, each bounded in count and time)
and writes docs/benchmarks.md; takes tens of minutes. One benchmark alone: npx tsx
bench/<name>.ts (docs/benchmarks.md names each one's file). Takes no options but
-h, --help (this text).
`;
const args = scriptArgs('bench', USAGE, {});
if ('exit' in args) process.exit(args.exit);

const OUTPUT = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const IMAGE_SECTION = '## Container image (measured by npm run test:image';
const ACK_RUNS = 5;
const ALERT_RUNS = 2;

async function step<T>(name: string, work: () => Promise<T>): Promise<T | Error> {
  const started = Date.now();
  console.log(`bench: ${name}…`);
  try {
    const result = await work();
    console.log(`bench: ${name} done in ${Math.round((Date.now() - started) / 1000)} s`);
    return result;
  } catch (error) {
    console.error(`bench: ${name} failed:`, error);
    return error instanceof Error ? error : new Error(String(error));
  }
}

function failed(title: string, error: Error): Section {
  return {
    title,
    rows: [
      {
        figure: 'benchmark failed',
        median: '—',
        comparison: error.message.slice(0, 300),
        target: '—',
        met: false,
      },
    ],
    notes: [],
  };
}

/** A section skipped on request: says so rather than dropping out of the page. */
function notRun(title: string, why: string): Section {
  return {
    title,
    rows: [{ figure: 'not run', median: '—', comparison: `skipped (${why})`, target: '—', met: undefined }],
    notes: [],
  };
}

const FAILOVER_TITLE = 'Redis Sentinel failover: master SIGKILLed under the app and worker';
const machine = machineInfo('npm run bench');
const started = Date.now();
const sections: Section[] = [];

const ack = await step('slack acknowledgement', () => runAckBench({ runs: ACK_RUNS }));
sections.push(ack instanceof Error ? failed('Slack acknowledgement', ack) : ackSection(ack, ACK_RUNS));

const e2e: E2eBench | Error = await step('end-to-end diagnosis and scale', () => runE2eBench());
sections.push(e2e instanceof Error ? failed('One diagnosis end to end', e2e) : e2eSection(e2e, LATENCY_MS));

const manual = await step('kubectl by hand', () => runManualBench());
sections.push(
  manual instanceof Error
    ? failed('The manual alternative', manual)
    : manualSection(manual, e2e instanceof Error ? undefined : e2e.sizes[0]),
);

const alerts = await step('alert storm', async () => {
  const runs: AlertBenchResult[] = [];
  for (let i = 0; i < ALERT_RUNS; i += 1) runs.push(await runAlertBench());
  return runs;
});
sections.push(alerts instanceof Error ? failed('Alert storm', alerts) : alertSection(alerts));

const flood = await step('alert flood', () => runFloodBench());
sections.push(flood instanceof Error ? failed('Alert flood', flood) : floodSection(flood));

const earlyWarning = await step('early warning', () => runEarlyWarningBench());
sections.push(
  earlyWarning instanceof Error
    ? failed('Early warning: from the incident to the Slack thread', earlyWarning)
    : earlyWarningSection(earlyWarning),
);

// Needs redis-server's Sentinel mode (three sentinels, two data nodes); BENCH_FAILOVER=0 skips it.
if (process.env['BENCH_FAILOVER'] === '0') {
  sections.push(notRun(FAILOVER_TITLE, 'BENCH_FAILOVER=0'));
} else {
  const failover = await step('redis sentinel failover', () =>
    runFailoverBench({ log: (line) => console.log(`bench:   ${line}`) }),
  );
  sections.push(failover instanceof Error ? failed(FAILOVER_TITLE, failover) : failoverSection(failover));
}

// A 20 s Redis stall under the app; BENCH_STALL=0 skips it.
const STALL_TITLE = 'Redis stalls for 20 s under the app';
if (process.env['BENCH_STALL'] === '0') {
  sections.push(notRun(STALL_TITLE, 'BENCH_STALL=0'));
} else {
  const stall = await step('redis stall', () =>
    runStallBench({ log: (line) => console.log(`bench:   ${line}`) }),
  );
  sections.push(stall instanceof Error ? failed(STALL_TITLE, stall) : stallSection(stall));
}

const capacity = await step('one redis under many clusters', () =>
  runRedisCapacityBench({ log: (line) => console.log(`bench:   ${line}`) }),
);
sections.push(
  capacity instanceof Error ? failed('One Redis under many clusters', capacity) : capacitySection(capacity),
);

const watchRss = await step('worker memory watching 100,000 pods', () => runWatchRssBench());
sections.push(
  watchRss instanceof Error
    ? failed('Worker memory watching 100,000 pods (measured)', watchRss)
    : watchRssSection(watchRss),
);

const analyzers = await step('analyzers', () => runAnalyzerBench());
sections.push(analyzers instanceof Error ? failed('Analyzers', analyzers) : analyzerSection(analyzers));

const dumps = await step('large dumps', () =>
  runDumpSizeBench({ log: (line) => console.log(`bench:   ${line}`) }),
);
sections.push(
  dumps instanceof Error ? failed('Large dumps: diagnose --from-file', dumps) : dumpSizeSection(dumps),
);

const simScale = await step('simulator at scale', () => runSimScaleBench());
sections.push(
  simScale instanceof Error
    ? failed('Simulator at 1,000 nodes / 20,000 pods', simScale)
    : simScaleSection(simScale),
);

const stepped = await step('stepped scale-old-replicaset', () => runSteppedWalkBench());
sections.push(
  stepped instanceof Error
    ? failed('Stepped scale-old-replicaset, 3 replicas on the simulator', stepped)
    : steppedWalkSection(stepped),
);

const draRequests = await step('DRA diagnosis requests', () => runDraRequestsBench());
sections.push(
  draRequests instanceof Error
    ? failed('API requests of a DRA diagnosis', draRequests)
    : draRequestsSection(draRequests),
);

const forward = await step('forward model and generated states', () => Promise.resolve(runForwardBench()));
sections.push(
  forward instanceof Error
    ? failed('Forward model: "can never finish" run forward', forward)
    : forwardSection(forward),
);

const kinds = await step('workload kinds at 5,000 nodes', () => runWorkloadKindsBench());
sections.push(
  kinds instanceof Error
    ? failed('Workload kinds on 10 and on 5,000 nodes', kinds)
    : workloadKindsSection(kinds),
);

const beforeDeploy = await step('check and the admission webhook', () => runCheckAdmissionBench());
sections.push(
  beforeDeploy instanceof Error
    ? failed('Before you deploy: check and the admission webhook', beforeDeploy)
    : checkAdmissionSection(beforeDeploy),
);

const teams = await step('microsoft teams invokes and cards', () => runTeamsBench());
sections.push(
  teams instanceof Error
    ? failed('Microsoft Teams: invoke answers, card size and the alert flood', teams)
    : teamsSection(teams),
);

const totalSeconds = Math.round((Date.now() - started) / 1000);
// The container image's figures are measured by `npm run test:image` (a build takes minutes,
// too long for this run): its section, written by hand, is carried over as it stands.
const previous = await readFile(OUTPUT, 'utf8').catch(() => '');
const imageSection = previous.slice(Math.max(0, previous.indexOf(IMAGE_SECTION)));
await writeFile(
  OUTPUT,
  renderReport(machine, sections, totalSeconds) +
    (previous.includes(IMAGE_SECTION) ? `\n${imageSection}` : ''),
);
console.log(`bench: wrote ${OUTPUT} in ${totalSeconds} s`);
