/**
 * `rollout-doctor postmortem --from-audit FILE` (src/cli/commands/postmortem.ts): the
 * draft of seed incident A from its audit log, in the chosen language, the record as
 * JSON, and every refusal of bad input with exit 2 (DESIGN.md §3).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAuditFile } from '../../src/cli/audit-file.js';
import { runCli } from '../../src/cli/run-cli.js';
import { buildIncidentRecord } from '../../src/postmortem/build.js';
import { incidentRecordSchema } from '../../src/postmortem/record.js';
import { fakeIo } from '../support/cli-io.js';
import { seedIncidentEvents, seedIncidentLog } from '../support/postmortem-incident.js';

const dir = mkdtempSync(join(tmpdir(), 'rd-postmortem-'));
const events = seedIncidentEvents();
const log = join(dir, 'audit.log');
writeFileSync(log, seedIncidentLog(events));

async function postmortem(args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = fakeIo();
  run.io.env = env;
  const code = await runCli(['postmortem', ...args], run.io);
  return { code, out: run.stdout(), err: run.stderr() };
}

describe('rollout-doctor postmortem --from-audit', () => {
  it('drafts the only incident of the log, counting the lines that are not audit records', async () => {
    const { code, out, err } = await postmortem(['--from-audit', log, '--tz', 'Asia/Seoul']);
    expect(code).toBe(0);
    expect(out).toMatch(/^# Post-mortem: `Deployment` `object-tracker` in namespace `vision`/);
    expect(out).toContain('| UTC | Asia/Seoul (GMT+9) | What happened |');
    expect(err).toBe('rollout-doctor postmortem: skipped 6 lines that are not audit records\n');
  });

  it('reads the shell’s TZ as the C library does where it can, and says so where it cannot', async () => {
    const seoul = await postmortem(['--from-audit', log], { TZ: 'Asia/Seoul' });
    expect(seoul.out).toContain('| UTC | Asia/Seoul (GMT+9) | What happened |');
    // POSIX's leading colon names a zone file; a fixed offset counts west as positive.
    const colon = await postmortem(['--from-audit', log], { TZ: ':Asia/Seoul' });
    expect(colon.out).toContain('| UTC | Asia/Seoul (GMT+9) | What happened |');
    const fixed = await postmortem(['--from-audit', log], { TZ: 'KST-9' });
    expect(fixed.out).toContain('| UTC | Etc/GMT-9 (GMT+9) | What happened |');
    for (const r of [seoul, colon, fixed]) expect(r.err).not.toContain('TZ=');
    // Daylight rules are not read: UTC, and the run says so (the draft still comes out).
    const rules = await postmortem(['--from-audit', log], { TZ: 'EST5EDT,M3.2.0,M11.1.0' });
    expect(rules.code).toBe(0);
    expect(rules.out).toContain('| UTC | UTC (GMT+0) | What happened |');
    expect(rules.err).toContain('TZ="EST5EDT,M3.2.0,M11.1.0" is not a zone this reads');
    // --tz decides: no word about TZ then.
    const flag = await postmortem(['--from-audit', log, '--tz', 'Asia/Seoul'], {
      TZ: 'EST5EDT,M3.2.0,M11.1.0',
    });
    expect(flag.err).not.toContain('TZ=');
  });

  it('writes Korean by --lang, else by the shell’s locale', async () => {
    const flag = await postmortem(['--from-audit', log, '--lang', 'ko']);
    expect(flag.out).toContain('# 분석');
    const shell = await postmortem(['--from-audit', log], { LANG: 'ko_KR.UTF-8' });
    expect(shell.out).toBe(flag.out);
    const overridden = await postmortem(['--from-audit', log], {
      LC_ALL: 'en_US.UTF-8',
      LANG: 'ko_KR.UTF-8',
    });
    expect(overridden.out).toContain('# Analysis');
  });

  it('gives the record itself with -o json, the same facts as the draft', async () => {
    const { code, out } = await postmortem([
      '--from-audit',
      log,
      '-o',
      'json',
      '--incident',
      'vision/object-tracker',
    ]);
    expect(code).toBe(0);
    const record = incidentRecordSchema.parse(JSON.parse(out));
    expect(record).toEqual(buildIncidentRecord('default/vision/object-tracker', events));
  });

  it('refuses bad input with exit 2 and one line', async () => {
    const other = join(dir, 'two.log');
    const second = events.map((e) =>
      e.event.action === 'notification' ? e : { ...e, event: { ...e.event, deployment: 'other' } },
    );
    writeFileSync(other, seedIncidentLog([...events, ...second]));
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(join(dir, 'a-directory'));
    const empty = join(dir, 'empty.log');
    writeFileSync(empty, '{"level":"info"}\nplain text\n');
    const cases: [string[], RegExp][] = [
      [['--from-audit', join(dir, 'missing')], /cannot read .*: no such file/],
      [['--from-audit', join(dir, 'a-directory')], /is not a regular file/],
      [['--from-audit', fifo], /is not a regular file/],
      [['--from-audit', empty], /holds no audit event \(2 lines that are not audit records\)/],
      [
        ['--from-audit', other],
        /the log holds 2 incidents; choose one with --incident: .*default\/vision\/other/,
      ],
      [['--from-audit', log, '--incident', 'vision/nope'], /no incident "vision\/nope" in the record/],
      [['--from-audit', log, '--lang', 'fr'], /--lang must be en or ko/],
      [['--from-audit', log, '--tz', 'Mars/Olympus'], /is not a time zone/],
      [['--from-audit', log, '-o', 'yaml'], /-o must be markdown or json/],
      [[], /which incident\?/],
    ];
    for (const [args, message] of cases) {
      const { code, err, out } = await postmortem(args);
      expect([code, err], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
      expect(out).toBe('');
    }
  });

  it('reads no file over the size bound', async () => {
    await expect(readAuditFile(log, 100)).rejects.toThrow(/over the 100-byte bound/);
    await expect(readAuditFile(log)).resolves.toBe(seedIncidentLog(events));
  });

  it('is listed with its options', async () => {
    const help = await postmortem(['--help']);
    expect(help.code).toBe(0);
    for (const option of [
      '--from-audit FILE',
      '--incident ID',
      '--lang en|ko',
      '-o markdown|json',
      '--tz ZONE',
    ])
      expect(help.out).toContain(option);
    const run = fakeIo();
    await runCli(['--help'], run.io);
    expect(run.stdout()).toContain('postmortem');
  });
});

describe('rollout-doctor postmortem output in a CI log', () => {
  it('prints no line a CI runner reads as a command, whatever the audit log quotes', async () => {
    const forged = '\n::error file=x::forged\n##vso[task.setvariable variable=x]1';
    const hostile = join(dir, 'audit-ci.log');
    const lines = seedIncidentLog(events).replace(
      'successfully rolled out',
      `successfully rolled out${JSON.stringify(forged).slice(1, -1)}`,
    );
    expect(lines).toContain('##vso[');
    writeFileSync(hostile, lines);
    for (const output of [[], ['-o', 'json']]) {
      const { code, out } = await postmortem(['--from-audit', hostile, ...output]);
      expect(code).toBe(0);
      expect(out).toContain('forged');
      for (const line of out.split('\n')) expect(line, line).not.toMatch(/^\s*::|##vso\[/i);
    }
  });
});
