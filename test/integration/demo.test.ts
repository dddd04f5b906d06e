/**
 * `npm run demo` as a new user runs it: a child process that starts everything
 * (simulator, private Redis, app and worker processes, Slack stand-in), plays both
 * incidents through signed Slack requests and an Alertmanager webhook, and exits 0
 * only when the simulator shows both fixed. Then nothing it started is left behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startRedis } from '../support/redis.js';
import { STORY } from '../support/timeouts.js';
import { transpiledEntry } from '../../scripts/transpiled-tree.js';
import { runCli } from '../../src/cli/run-cli.js';
import { buildIncidentRecord } from '../../src/postmortem/build.js';
import { readAuditLog } from '../../src/postmortem/read-audit.js';
import { fakeIo } from '../support/cli-io.js';

interface Run {
  code: number | null;
  out: string;
}

/**
 * `npm run demo` is `tsx scripts/demo.ts`; the first story runs it so. The others run
 * the same file's JavaScript with plain node (scripts/transpiled-tree.ts): what tsx
 * runs, without the loader's seconds of CPU in each of a dozen starts.
 */
const demoArgs = (tsx = false): string[] =>
  tsx ? ['--import', 'tsx', 'scripts/demo.ts'] : [transpiledEntry('scripts/demo.ts')];

/** The demo run to its end; `onOutput` sees the output so far each time some arrives. */
function runDemo(
  args: string[],
  env: Record<string, string | undefined>,
  onOutput?: (out: string) => void,
  how: { tsx?: boolean } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...demoArgs(how.tsx), ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const add = (c: Buffer): void => {
      out += c.toString();
      onOutput?.(out);
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

/** True when something accepts TCP connections on the port (fetch cannot tell Redis from nothing). */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The process group of a running process (Linux /proc: the field after state and ppid). */
function processGroup(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** The redis-server started for `port` (its command line names 127.0.0.1:PORT). */
function pidListeningOn(port: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.startsWith('redis-server') && cmdline.includes(`:${port}`)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return 0;
}

// Each test here plays a whole story: the story limit, not the config's default.
/**
 * The demo ends by printing how to draft each incident's post-mortem (issue 65.4): the
 * printed command works, in English and Korean, and its facts are the audit log's.
 */
async function draftsTheDemosPostmortem(out: string): Promise<void> {
  const commands = [...out.matchAll(/npx rollout-doctor postmortem --from-audit (\S+) --incident (\S+)/g)];
  expect(commands.map((m) => m[2])).toEqual(['demo/vision/vision-object-tracker', 'demo/shop/checkout']);
  const file = commands[0]?.[1] ?? '';
  const cli = async (args: string[]) => {
    const run = fakeIo();
    const code = await runCli(['postmortem', '--from-audit', file, ...args], run.io);
    return { code, out: run.stdout() };
  };
  try {
    const en = await cli(['--incident', 'demo/vision/vision-object-tracker', '--tz', 'Asia/Seoul']);
    expect(en.code, en.out).toBe(0);
    expect(en.out).toContain('- Diagnosis: `RolloutSurgeDeadlock`.');
    expect(en.out).toContain('- Fix adopted: `set-rolling-update`, approved by `U0LEAD`.');
    expect(en.out).toMatch(/- Result: the rollout completed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\./);
    expect(en.out).toContain('0/13 nodes are available: 1 Insufficient nvidia.com/gpu');
    const json = await cli(['--incident', 'demo/vision/vision-object-tracker', '-o', 'json']);
    const record = JSON.parse(json.out) as ReturnType<typeof buildIncidentRecord>;
    expect(record).toEqual(
      buildIncidentRecord(
        'demo/vision/vision-object-tracker',
        readAuditLog(readFileSync(file, 'utf8')).events,
      ),
    );
    expect(record.signal?.via).toBe('command');
    expect(record.timeline.map((e) => e.at)).toEqual(record.timeline.map((e) => e.at).sort());
    // Each line of the timeline, in the record's order, with its UTC time.
    const rows = en.out.split('\n').filter((l) => /^\| \d{4}-/.test(l) && l.split(' | ').length === 3);
    expect(rows.map((r) => r.slice(2, 21))).toEqual(
      record.timeline.map((e) => e.at.slice(0, 19).replace('T', ' ')),
    );
    const ko = await cli(['--incident', 'demo/shop/checkout', '--lang', 'ko']);
    expect(ko.code, ko.out).toBe(0);
    expect(ko.out).toContain('- 첫 신호: Alertmanager 알림.');
    expect(ko.out).toContain('- 채택한 조치: `exclude-node`.');
    expect(ko.out).toContain('노드 제외(nodeAffinity `NotIn` 조건)를 제거한다');
  } finally {
    rmSync(join(file, '..'), { recursive: true, force: true });
  }
}

describe('npm run demo', STORY, () => {
  it('plays both incidents end to end, prints the Slack messages, exits 0 and cleans up', async () => {
    const { code, out } = await runDemo(['--timeout-seconds', '100'], { REDIS_URL: undefined }, undefined, {
      tsx: true,
    });
    expect(out, out).toContain('Demo finished: both incidents fixed');
    expect(code).toBe(0);
    // Story 1: the scheduler's words, the command, the verdict with its evidence and buttons, the fix rolled out.
    expect(out).toContain('0/13 nodes are available: 1 Insufficient nvidia.com/gpu');
    expect(out).toContain('/rollout-doctor vision-object-tracker -n vision');
    expect(out).toContain('✔ diagnosed vision/vision-object-tracker: RolloutSurgeDeadlock');
    expect(out).toMatch(/│ 🔴 RolloutSurgeDeadlock: Rollout of vision-object-tracker can never finish/);
    // One primary button: the recommended fix; the others keep the default style.
    expect(out).toMatch(/│ \[Apply: set-rolling-update\]\* \[Apply: set-recreate\] .*\[Re-run\] \[Dismiss\]/);
    expect(out).toContain('set-rolling-update approved by @U0LEAD');
    expect(out).toMatch(/rolled out: deployment\/vision-object-tracker/);
    expect(out).toMatch(
      /✔ vision\/vision-object-tracker: rollout complete, .* \(vision\/boost-track-app:1\.1\) ready on gpu-node-1/,
    );
    // Story 2: the alert's root message, the thread with the per-node evidence, the exclusion, healthy pods.
    expect(out).toContain('Alertmanager fires KubePodCrashLooping for pod shop/checkout-');
    expect(out).toMatch(/new message in #alerts\n│ .*KubePodCrashLooping/);
    expect(out).toContain('✔ diagnosed shop/checkout from the alert: CrashLoopOnNode on node-b');
    expect(out).toMatch(/│ +node-b +1 +0 +1 +\d+ +132 +Error/); // the table, in the thread report
    expect(out).toMatch(/\[Apply: exclude-node\]\* \[Apply: delete-pods\] \[Re-run\]/);
    expect(out).toMatch(/rolled out: deployment\/checkout/);
    expect(out).toMatch(/✔ shop\/checkout: 3\/3 pods ready on .*, none on node-b/);
    expect(out).toMatch(/app: approval exclude-node on shop\/checkout by Lead: claimed/);
    expect(out).toMatch(
      /worker: diagnosis on vision\/vision-object-tracker: RolloutSurgeDeadlock, \d+ plans offered/,
    );
    // Cleanup: the private Redis, the app and the worker are gone, and so is the temporary directory.
    const dir = /kubeconfig (\S+)\/kubeconfig/.exec(out)?.[1] ?? '';
    expect(dir).not.toBe('');
    expect(existsSync(dir)).toBe(false);
    const redisPort = /private redis-server on port (\d+)/.exec(out)?.[1];
    expect(redisPort).toBeDefined();
    expect(await listening(Number(redisPort))).toBe(false);
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    expect(pids.filter(alive)).toEqual([]);
    await draftsTheDemosPostmortem(out);
  });

  it('--chat teams plays both incidents through the Teams stand-in: a signed message, then an alert thread; result cards as text, Approve, rolled out', async () => {
    const { code, out } = await runDemo(['--chat', 'teams', '--timeout-seconds', '100'], {
      REDIS_URL: undefined,
    });
    expect(out, out).toContain('Demo finished: both incidents fixed');
    expect(code).toBe(0);
    expect(out).toContain('a stand-in Microsoft Teams');
    // Story 1: the message, the result card printed as text (verdict, buttons), Approve, the card's state line.
    expect(out).toContain('@rollout-doctor diagnose deployment/vision-object-tracker -n vision');
    expect(out).toContain('┌─ Teams · new post in #incidents');
    expect(out).toMatch(/│ 🔴 RolloutSurgeDeadlock: Rollout of vision-object-tracker can never finish/);
    expect(out).toMatch(/│ \[Apply: set-rolling-update\] /);
    expect(out).toContain('✔ diagnosed vision/vision-object-tracker: RolloutSurgeDeadlock');
    expect(out).toMatch(/✔ the card says: ✅ set-rolling-update approved by Lead at .*; rolled out at /);
    expect(out).toMatch(/✔ vision\/vision-object-tracker: rollout complete, .* ready on gpu-node-1/);
    // Story 2 starts from an alert, as in the Slack demo: a thread in the Teams alerts channel.
    expect(out).not.toContain('@rollout-doctor diagnose deployment/checkout');
    expect(out).toMatch(
      /Alertmanager fires KubePodCrashLooping for pod shop\/checkout-\S+ \(POST \/alerts\/alertmanager/,
    );
    expect(out).toMatch(/┌─ Teams · new thread in #alerts\n│ .*KubePodCrashLooping/);
    expect(out).toContain('✔ the app opened an alert thread in the Teams #alerts channel');
    expect(out).toContain('✔ diagnosed shop/checkout from the alert: CrashLoopOnNode');
    expect(out).toMatch(
      /✔ the card says: ✅ exclude-node \(lasts 24h\) approved by Lead at .*; rolled out at /,
    );
    expect(out).toMatch(/✔ shop\/checkout: 3\/3 pods ready on .*, none on node-b/);
    // Approved through Teams, the approver named as Teams shows people, never by Entra
    // object id; a Teams-only app, as a Teams install runs it: no Slack stand-in at all (issue 55).
    expect(out).toMatch(/app: approval exclude-node on shop\/checkout by Lead: claimed/);
    expect(out).not.toMatch(/00000000-0000-4000-8000-/);
    expect(out).not.toContain('Slack · ');
    expect(out).not.toMatch(/^Slack: /m);
    expect(out).toContain('App ready (Redis answers; Teams only, no Slack).');
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('--dra plays the DRA twin of the tracker incident: claim wording, the old pod holding gpu-0 through its claim, the fix', async () => {
    const { code, out } = await runDemo(['--dra', '--timeout-seconds', '100'], { REDIS_URL: undefined });
    expect(out, out).toContain('Demo finished: both incidents fixed');
    expect(code).toBe(0);
    expect(out).toContain('▶ Story 1 (DRA twin)');
    // The scheduler speaks of claims, not of nvidia.com/gpu: the GPU is not in node allocatable.
    expect(out).toContain(
      "0/13 nodes are available: 1 cannot allocate all claims, 12 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/13 nodes are available: 13 Preemption is not helpful for scheduling",
    );
    expect(out).not.toContain('Insufficient nvidia.com/gpu');
    expect(out).toMatch(
      /The old pod holds gpu-0 \(gpu\.nvidia\.com\) through ResourceClaim (vision-object-tracker-\w+-\w+)-gpu-\w{5}, reserved for \1\./,
    );
    expect(out).toContain('✔ diagnosed vision/vision-object-tracker: RolloutSurgeDeadlock');
    expect(out).toMatch(
      /│ 🔒 devices of class gpu\.nvidia\.com on gpu-node-1: 1 allocatable, 1 in use, 0 free/,
    );
    expect(out).toMatch(
      /✔ vision\/vision-object-tracker: rollout complete, .* \(vision\/boost-track-app:1\.1\) ready on gpu-node-1/,
    );
    // Story 2 is the same.
    expect(out).toContain('✔ diagnosed shop/checkout from the alert: CrashLoopOnNode on node-b');
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids.filter(alive)).toEqual([]);
  });

  it('fails with a clear reason and a non-zero status when it cannot finish in time', async () => {
    // The story cannot finish: the worker is stopped (SIGSTOP) as soon as the demo names
    // its pid, right after starting it and before the app is even ready, so no diagnosis
    // ever comes back. The overall timeout then fires whatever the machine's speed; the
    // worker goes on (SIGCONT) once the demo says it failed, so its cleanup can stop it.
    let worker = 0;
    const run = await runDemo(['--timeout-seconds', '10'], {}, (out) => {
      const named = /Worker: .*pid (\d+);/.exec(out);
      if (named && worker === 0) {
        worker = Number(named[1]);
        process.kill(worker, 'SIGSTOP');
      }
      if (worker !== 0 && out.includes('Demo failed:') && alive(worker)) process.kill(worker, 'SIGCONT');
    });
    const { code, out } = run;
    expect(code).toBe(1);
    expect(out).toContain('Demo failed: overall timeout of 10 s reached');
    expect(out).not.toContain('Demo finished');
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids.length, 'processes were started before the timeout').toBeGreaterThan(0);
    expect(pids.filter(alive)).toEqual([]);
    // The log paths it prints still exist afterwards: a failed run keeps its logs.
    const kept = /The full logs stay in (\S+) \(remove it when done\)/.exec(out)?.[1] ?? '';
    expect(kept, out).not.toBe('');
    try {
      for (const path of [...out.matchAll(/last lines of the \w+ log \((\S+), kept\)/g)].map(
        (m) => m[1] ?? '',
      ))
        expect(existsSync(path), path).toBe(true);
      expect(existsSync(join(kept, 'app.log'))).toBe(true);
      expect(existsSync(join(kept, 'kubeconfig'))).toBe(false);
    } finally {
      rmSync(kept, { recursive: true, force: true });
    }
  });

  it('--kind daemonset plays the node agent incident: the surge pod beside the old one, the fix on spec.updateStrategy, every node updated', async () => {
    const { code, out } = await runDemo(['--kind', 'daemonset', '--timeout-seconds', '100'], {
      REDIS_URL: undefined,
    });
    expect(out, out).toContain('Demo finished: the DaemonSet incident fixed');
    expect(code).toBe(0);
    expect(out).toContain(
      "0/3 nodes available: 1 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]",
    );
    expect(out).toContain('✔ diagnosed telemetry/daemonset/node-agent: RolloutSurgeDeadlock');
    expect(out).toContain(
      "Let each node's old pod go first: updateStrategy RollingUpdate maxSurge 0, maxUnavailable 1.",
    );
    expect(out).toContain(
      '🚀 rolled out: daemonset/node-agent: daemon set "node-agent" successfully rolled out',
    );
    expect(out).toMatch(
      /✔ telemetry\/daemonset\/node-agent: rollout complete, \S+node-agent:1\.9\.0 on node-a, node-b, node-c/,
    );
    expect(out).not.toContain('deployment/node-agent');
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids.filter(alive)).toEqual([]);
  });

  it('--kind rollout plays the tracker as an Argo Rollout: the canary pod on the held GPU, the canary bounds approved, the pause step reached', async () => {
    const { code, out } = await runDemo(['--kind', 'rollout', '--timeout-seconds', '100'], {
      REDIS_URL: undefined,
    });
    expect(out, out).toContain('Demo finished: the Argo Rollout incident fixed');
    expect(code).toBe(0);
    expect(out).toContain('✔ diagnosed vision/rollout/vision-object-tracker: RolloutSurgeDeadlock');
    expect(out).toContain('Strategy: canary at 1 replica: maxSurge 25% = 1, maxUnavailable 25% = 0');
    expect(out).toContain('Let stable pods go first: canary maxSurge 0, maxUnavailable 1.');
    expect(out).toContain(
      'applied; the rollout is paused and waits for a person: rollout/vision-object-tracker: rollout "vision-object-tracker" is Paused - CanaryPauseStep',
    );
    expect(out).toContain(
      '✔ vision/rollout/vision-object-tracker: the canary runs vision/boost-track-app:1.1 on gpu-node-1',
    );
    expect(out).not.toContain('deployment/vision-object-tracker');
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids.filter(alive)).toEqual([]);
  });

  it('--kind statefulset plays the ledger: fix the template first, then after the revert the forced rollback of ledger-2', async () => {
    const { code, out } = await runDemo(['--kind', 'statefulset', '--timeout-seconds', '100'], {
      REDIS_URL: undefined,
    });
    expect(out, out).toContain('Demo finished: the StatefulSet incident fixed');
    expect(code).toBe(0);
    expect(out).toContain('✔ diagnosed payments/statefulset/ledger: RolloutStuck, fix the template first');
    expect(out).toContain('✔ re-diagnosed: RolloutStuck, the forced rollback (delete exactly ledger-2)');
    expect(out).toContain(
      '✔ payments/statefulset/ledger: rollout complete, ledger-0..2 at registry.example.com/payments/ledger:3.4.1',
    );
    expect(out).not.toContain('deployment/ledger');
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids.filter(alive)).toEqual([]);
  });

  it('--help prints the usage (exit 0); an unknown option or a bad value is bad input (exit 2)', async () => {
    const help = await runDemo(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: npm run demo/);
    expect(help.out).toContain('Exit status: 0 both incidents fixed');
    for (const args of [
      ['--bogus'],
      ['--time-scale', 'fast'],
      ['--timeout-seconds'],
      ['--kind', 'cronjob'],
      ['--chat', 'irc'],
      ['--chat', 'teams', '--kind', 'daemonset'],
    ]) {
      const bad = await runDemo(args, {});
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.out).toContain('Usage: npm run demo');
      expect(bad.out).not.toContain('Kubernetes API simulator at'); // nothing started
    }
  });

  it('with REDIS_URL and no redis-server on PATH: uses it and leaves none of its keys behind', async () => {
    const shared = await startRedis();
    const client = new Redis(shared.url);
    try {
      await client.set('rd:someone-else', 'kept');
      const { code, out } = await runDemo(['--timeout-seconds', '100'], {
        REDIS_URL: shared.url,
        PATH: '/nonexistent',
      });
      expect(out, out).toContain('Demo finished: both incidents fixed');
      expect(code).toBe(0);
      expect(out).toContain(`Redis:      REDIS_URL (${shared.url}; no redis-server on PATH)`);
      expect(await client.keys('*')).toEqual(['rd:someone-else']);
    } finally {
      client.disconnect();
      await shared.close();
    }
  });

  it('with REDIS_URL and a redis-server on PATH: a private one, the shared Redis untouched', async () => {
    const shared = await startRedis();
    const client = new Redis(shared.url);
    const child = spawn(process.execPath, demoArgs(), {
      env: { ...process.env, NO_COLOR: '1', REDIS_URL: shared.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let out = '';
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (/Worker: .*pid \d+;/.test(out)) resolve();
        });
      });
      expect(out).toMatch(/Redis: +private redis-server on port \d+ \(REDIS_URL left alone/);
      child.kill('SIGTERM');
      expect(await exited).toBe(130);
      expect(await client.dbsize()).toBe(0);
    } finally {
      // SIGTERM, never SIGKILL: the demo must stop the app, the worker and Redis it started.
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      client.disconnect();
      await shared.close();
    }
  });

  it('says clearly what is missing when REDIS_URL does not answer and no redis-server is on PATH', async () => {
    const { code, out } = await runDemo([], { REDIS_URL: 'redis://127.0.0.1:1', PATH: '/nonexistent' });
    expect(code).toBe(1);
    expect(out).toContain(
      'Demo failed: REDIS_URL (redis://127.0.0.1:1) does not answer and no redis-server binary is on PATH',
    );
    expect(out).toContain('apt-get install redis-server');
  });

  it('Ctrl-C mid-story (SIGINT to the whole process group, as a terminal sends it) exits 130 quietly and stops everything', async () => {
    // A process group of its own, like a shell's foreground job: the signal reaches the
    // demo and everything it started in that group at once.
    const child = spawn(process.execPath, demoArgs(), {
      env: { ...process.env, NO_COLOR: '1', REDIS_URL: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        // The app and the worker are busy with the first diagnosis.
        if (out.includes('asked for a diagnosis of deployment/vision-object-tracker')) resolve();
      });
    });
    const redisPort = /private redis-server on port (\d+)/.exec(out)?.[1] ?? '1';
    // The terminal's Ctrl-C must reach only the demo, which then stops the app, the
    // worker and Redis in order: none of them is in the demo's process group.
    const started = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    const redisPid = pidListeningOn(Number(redisPort));
    expect(redisPid).toBeGreaterThan(0);
    for (const pid of [...started, redisPid]) expect(processGroup(pid), `pid ${pid}`).not.toBe(child.pid);
    const signalled = Date.now();
    process.kill(-(child.pid ?? 0), 'SIGINT');
    expect(await exited).toBe(130);
    const stoppedIn = Date.now() - signalled;
    const after = out.slice(out.indexOf('SIGINT: stopping everything the demo started'));
    // The story stops at the interrupt: nothing printed, sent or clicked after it.
    expect(after, out).toBe('SIGINT: stopping everything the demo started…\n');
    // Quiet: no failure report, no log tails, no stack trace.
    expect(out).not.toContain('Demo failed');
    expect(out).not.toContain('last lines of the');
    expect(out).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    expect(out).not.toMatch(/Error:/);
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    expect(pids.filter(alive)).toEqual([]);
    expect(existsSync(/kubeconfig (\S+)\/kubeconfig/.exec(out)?.[1] ?? '/nonexistent')).toBe(false);
    expect(await listening(Number(redisPort))).toBe(false);
    // Stopped in order, each gracefully, not after the 8 s kill timeout of a process
    // that lost its Redis first.
    expect(stoppedIn).toBeLessThan(6_000);
  });

  it('on SIGTERM (as on Ctrl-C) stops the app, the worker and Redis it started and removes its directory', async () => {
    const child = spawn(process.execPath, demoArgs(), {
      env: { ...process.env, NO_COLOR: '1', REDIS_URL: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (/Worker: .*pid \d+;/.test(out)) resolve();
      });
    });
    const redisPort = /private redis-server on port (\d+)/.exec(out)?.[1] ?? '1';
    expect(await listening(Number(redisPort))).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(130);
    expect(out).toContain('SIGTERM: stopping everything the demo started');
    const pids = [...out.matchAll(/pid (\d+);/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    expect(pids.filter(alive)).toEqual([]);
    expect(existsSync(/kubeconfig (\S+)\/kubeconfig/.exec(out)?.[1] ?? '/nonexistent')).toBe(false);
    expect(await listening(Number(redisPort))).toBe(false);
  });
});
