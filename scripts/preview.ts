/**
 * `npm run preview [-- --port P] [--time-scale N] [--screenshots DIR]`
 *
 * A local Block Kit preview: everything `npm run demo` starts (the Kubernetes API
 * simulator with both seed incidents, Redis, the real app and worker, the Slack
 * stand-in), plus a page on 127.0.0.1 that shows what the app posted as Slack shows
 * it. Type `/rollout-doctor diagnose deployment/vision-object-tracker -n vision` in
 * its box; its buttons go to the app as signed `block_actions`, exactly as Slack's.
 * Runs until Ctrl-C.
 *
 * The page has a second tab, Teams: what the app posted to the Teams stand-in, drawn by
 * Microsoft's Adaptive Cards renderer; `@rollout-doctor diagnose …` posted there and its
 * Action.Execute buttons reach the app as signed Bot Framework activities.
 *
 * With --screenshots DIR it plays both incidents in headless chromium instead
 * (playwright-core, the system's chromium), writes DIR/preview-incident-a.png and
 * DIR/preview-incident-b.png, then incident A again through the Teams view,
 * DIR/preview-teams.png, each with its text twin (.txt), and exits; when DIR is not
 * docs/, it says whether docs/'s committed screenshots still show what is rendered
 * now (scripts/preview/staleness.ts) and exits 1 when they do not.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { cleanText } from '../src/text/clean.js';
import { createCleanup, runScript } from './demo/cleanup.js';
import { CHANNELS } from './demo/context.js';
import type { DemoProcess } from './demo/processes.js';
import { DemoError } from './demo/demo-error.js';
import {
  approveInTeams,
  approveRecommended,
  findChromium,
  launchChromium,
  openPreview,
  openTeamsView,
  postInTeams,
  runCommand,
  screenshotMessage,
} from './preview/browser-flow.js';
import type { Locator, Page } from 'playwright-core';
import {
  breakTrackerAgain,
  holdPictureMoment,
  INCIDENT_COMMANDS,
  startPreviewSession,
  TEAMS_COMMAND,
  type PreviewSession,
} from './preview/session.js';
import { TEAMS_CHANNELS } from './demo/teams-story.js';
import { normalizedPreviewText, previewTextDiff } from './preview/staleness.js';
import { refuse, scriptArgs } from './script-args.js';

const USAGE = `Usage: npm run preview [-- --port P] [--time-scale N] [--screenshots DIR]
  --port P           the page's port on 127.0.0.1 (default: a free one)
  --time-scale N     simulator speed-up (default 30)
  --screenshots DIR  play both incidents in headless chromium, save DIR/preview-incident-{a,b}.png,
                     then incident A again in the Teams view, save DIR/preview-teams.png, exit`;

const argsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).optional(),
  'time-scale': z.coerce.number().positive().default(30),
  screenshots: z.string().min(1).optional(),
});

/** The preview's terminal: what it prints can quote the page (cluster text), so it is cleaned here. */
const say = (line: string): void => {
  process.stdout.write(`${cleanText(line)}\n`);
};
const cleanup = createCleanup(say);
const processes: DemoProcess[] = [];

/**
 * Plays both incidents in headless chromium and writes their pictures. The cluster's clock
 * is held at one moment (holdPictureMoment: incident B's restart count) while both are
 * diagnosed, then runs again for the approvals and rollouts: the pictures show the same
 * whatever the machine's load.
 */
async function screenshots(session: PreviewSession, dir: string): Promise<number> {
  let stale = 0;
  const executable = findChromium();
  if (!executable) throw new DemoError('no chromium on PATH (Debian/Ubuntu: apt-get install chromium)');
  await mkdir(dir, { recursive: true });
  const browser = await launchChromium(executable);
  cleanup.register('chromium', () => browser.close());
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  await openPreview(page, session.server.url, 90_000);
  const { sim } = session.stack;
  await holdPictureMoment(sim, 120_000);
  const messages: [string, Locator][] = [];
  try {
    for (const [incident, { command, mentions }] of Object.entries(INCIDENT_COMMANDS)) {
      say(`Playing incident ${incident.toUpperCase()}: ${command}`);
      const message = await runCommand(page, {
        channel: CHANNELS.incidents,
        command,
        mentions,
        timeoutMs: 60_000,
      });
      messages.push([incident, message]);
    }
  } finally {
    sim.resumeClock();
  }
  for (const [incident, message] of messages) {
    const { label } = await approveRecommended(page, message, 90_000);
    const file = join(dir, `preview-incident-${incident}.png`);
    await screenshotMessage(page, message, file);
    const text = normalizedPreviewText(await message.innerText());
    await writeFile(join(dir, `preview-incident-${incident}.txt`), `${text}\n`);
    say(`  ${incident.toUpperCase()}: approved "${label}", rolled out; wrote ${file}`);
    if (resolve(dir) !== COMMITTED) stale += compareWithCommitted(`preview-incident-${incident}`, text);
  }
  stale += await teamsPicture(session, page, dir);
  return stale;
}

/**
 * The Teams picture: incident A again (breakTrackerAgain: the seeds are fixed by now),
 * asked in the page's Teams view, drawn by Microsoft's renderer, approved there through
 * its confirm step (signed Action.Execute invokes), the card saying rolled out.
 */
async function teamsPicture(session: PreviewSession, page: Page, dir: string): Promise<number> {
  const { sim } = session.stack;
  await openTeamsView(page);
  say(`Playing incident A again in the Teams view: ${TEAMS_COMMAND.text}`);
  await breakTrackerAgain(sim, 120_000);
  let post: Locator;
  try {
    post = await postInTeams(page, {
      channel: TEAMS_CHANNELS.incidents,
      ...TEAMS_COMMAND,
      timeoutMs: 60_000,
    });
  } finally {
    sim.resumeClock();
  }
  const { label } = await approveInTeams(page, post, 90_000);
  const file = join(dir, 'preview-teams.png');
  await screenshotMessage(page, post, file);
  const text = normalizedPreviewText(await post.innerText());
  await writeFile(join(dir, 'preview-teams.txt'), `${text}\n`);
  say(`  Teams: approved "${label}", rolled out; wrote ${file}`);
  return resolve(dir) !== COMMITTED ? compareWithCommitted('preview-teams', text) : 0;
}

/** Where the README's screenshots live, with their text twins (scripts/preview/staleness.ts). */
const COMMITTED = resolve('docs');

/** Says whether the committed screenshot `name` (docs/NAME.png) shows what the preview renders now; 1 when not. */
function compareWithCommitted(name: string, now: string): number {
  const path = join(COMMITTED, `${name}.txt`);
  if (!existsSync(path)) {
    say(
      `  docs/${name}.png has no text twin (${path}): regenerate with npm run preview -- --screenshots docs`,
    );
    return 1;
  }
  const diff = previewTextDiff(readFileSync(path, 'utf8').trimEnd(), now);
  if (diff.length === 0) {
    say(`  docs/${name}.png is current (its text matches).`);
    return 0;
  }
  say(`  docs/${name}.png is STALE; what differs (- committed, + now):`);
  for (const line of diff.slice(0, 20)) say(`    ${line}`);
  if (diff.length > 20) say(`    … and ${diff.length - 20} more line(s)`);
  say('  Regenerate with: npm run preview -- --screenshots docs');
  return 1;
}

async function main(interrupted: () => boolean): Promise<number> {
  const read = scriptArgs('preview', `${USAGE}\n`, {
    port: { type: 'string' },
    'time-scale': { type: 'string' },
    screenshots: { type: 'string' },
  });
  if ('exit' in read) return read.exit;
  const parsed = argsSchema.safeParse(read.values);
  if (!parsed.success)
    return refuse(
      'preview',
      `${USAGE}\n`,
      parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '),
    );
  const args = parsed.data;
  try {
    const session = await startPreviewSession({
      cleanup,
      say,
      timeScale: args['time-scale'],
      processes,
      ...(args.port !== undefined ? { port: args.port } : {}),
    });
    say(`Preview:    ${session.server.url} (loopback only)`);
    const crashed = Promise.race([session.stack.app.exited, session.stack.worker.exited]);
    if (args.screenshots !== undefined) {
      const stale = await Promise.race([screenshots(session, resolve(args.screenshots)), crashed]);
      // Exit 1 when the committed screenshots are stale, so a check can run this.
      return typeof stale === 'number' && stale > 0 ? 1 : 0;
    }
    await Promise.race([session.incidents, crashed]);
    say(`Both incidents are live. Open ${session.server.url} and type, for example:`);
    say(`  ${INCIDENT_COMMANDS.a.command}`);
    say(`  ${INCIDENT_COMMANDS.b.command}`);
    say('Ctrl-C stops everything.');
    await crashed;
    return 1;
  } catch (error) {
    // Ctrl-C ends the preview by stopping what it waits on: no failure to report.
    if (interrupted()) return 130;
    say(`Preview failed: ${error instanceof Error ? error.message : String(error)}`);
    if (!(error instanceof DemoError) && error instanceof Error && error.stack) say(error.stack);
    for (const proc of processes) {
      say(`--- last lines of the ${proc.name} log (${proc.logFile}) ---`);
      say(await proc.logTail());
    }
    return 1;
  } finally {
    await cleanup.run();
  }
}

runScript('preview', main, cleanup, say);
