/**
 * `rollout-doctor postmortem --from-audit FILE [--incident ID] [--lang en|ko]
 * [-o markdown|json] [--tz ZONE]`: a post-mortem draft of one incident from the audit
 * log the app and the workers write (src/audit.ts), or with `--incident ID` alone from
 * the incident's record in Redis (src/postmortem/journal.ts). Markdown shaped like the
 * team's post-mortems, or the record itself as JSON (docs/postmortem.md). Exit
 * (DESIGN.md §3): 0 drafted; 2 bad arguments or input (no such file, not a regular
 * file, too large, no audit event, no such incident, several and none chosen);
 * 3 Redis unreachable; 4 internal error.
 */
import { LANGS, langFromEnvironment, parseLang, type Lang } from '../../i18n/lang.js';
import { buildIncidentRecord, incidentIds } from '../../postmortem/build.js';
import type { TimedEvent } from '../../postmortem/audit-line.js';
import { readAuditLog } from '../../postmortem/read-audit.js';
import { renderPostmortem } from '../../postmortem/render.js';
import { isTimeZone } from '../../postmortem/time.js';
import { ciSafeText, cleanText, escapeJsonControls } from '../../text/clean.js';
import { cliLang, parseCommandArgs, wantsHelp } from '../args.js';
import { HELP_WORDS, POSTMORTEM_FLAGS, POSTMORTEM_VALUES } from '../help-words.js';
import { translate } from '../../i18n/catalogue.js';
import { MAX_AUDIT_BYTES, readAuditFile } from '../audit-file.js';
import { EXIT, type CliIo } from '../io.js';
import { idsListed, usageError, usageWords } from '../usage-words.js';

/** The help in `lang` (cli/help-words.ts): flags and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'postmortemHelp', {
    usage: [
      'rollout-doctor postmortem --from-audit FILE [--incident ID]',
      'rollout-doctor postmortem --incident ID',
    ],
    flags: [...POSTMORTEM_FLAGS],
    values: [...POSTMORTEM_VALUES],
    limit: `${MAX_AUDIT_BYTES / 1024 / 1024} MiB`,
  });
}

interface Options {
  lang: Lang;
  output: 'markdown' | 'json';
  zone: string;
  /** TZ was set to what this does not read: the draft's times are in UTC, and the run says so. */
  tzIgnored?: string;
}

/**
 * The zone the shell's TZ names: an IANA name, the same with POSIX's leading colon
 * (":Asia/Seoul"), or a POSIX fixed offset without daylight rules ("KST-9", "UTC0") as
 * the Etc/GMT zone of that offset (both count west as positive: KST-9 is Etc/GMT-9,
 * UTC+9). Undefined for anything else (daylight rules, minutes, a file path).
 */
export function zoneFromTz(tz: string): string | undefined {
  const name = tz.startsWith(':') ? tz.slice(1) : tz;
  if (isTimeZone(name)) return name;
  const fixed = /^(?:[A-Za-z]{3,}|<[+-]?\w+>)([+-]?)(\d{1,2})$/.exec(tz);
  if (!fixed) return undefined;
  const hours = Number(fixed[2]);
  if (hours > 14) return undefined;
  const zone = hours === 0 ? 'UTC' : `Etc/GMT${fixed[1] === '-' ? '-' : '+'}${hours}`;
  return isTimeZone(zone) ? zone : undefined;
}

function options(values: { lang?: string; output?: string; tz?: string }, io: CliIo): Options {
  const lang = values.lang === undefined ? langFromEnvironment(io.env) : parseLang(values.lang);
  if (lang === undefined) throw usageError('langFlag', { value: values.lang ?? '', langs: LANGS });
  const output = values.output ?? 'markdown';
  if (output !== 'markdown' && output !== 'json')
    throw usageError('outputFormat', { value: output, formats: ['markdown', 'json'] });
  if (values.tz !== undefined && !isTimeZone(values.tz))
    throw usageError('badTimeZone', { value: values.tz, scheme: 'IANA', example: 'Asia/Seoul' });
  // TZ may hold what this does not read (":/etc/localtime", daylight rules): then UTC, said.
  const tz = io.env['TZ'];
  const fromEnv = tz === undefined || tz === '' ? 'UTC' : zoneFromTz(tz);
  return {
    lang,
    output,
    zone: values.tz ?? fromEnv ?? 'UTC',
    ...(values.tz === undefined && fromEnv === undefined && tz !== undefined ? { tzIgnored: tz } : {}),
  };
}

/** The incident `wanted` names among `ids`, or the only one; else a UsageError listing them. */
export function chooseIncident(ids: readonly string[], wanted: string | undefined): string {
  if (wanted === undefined) {
    if (ids.length === 1 && ids[0] !== undefined) return ids[0];
    throw usageError('incidentsInLog', idsListed(ids));
  }
  if (ids.includes(wanted)) return wanted;
  const matches = ids.filter(
    (id) => id.endsWith(`/${wanted}`) && id.split('/').length === wanted.split('/').length + 1,
  );
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  if (matches.length > 1) throw usageError('severalClusters', { value: wanted, ...idsListed(matches) });
  throw usageError('noSuchIncident', { value: wanted, ...idsListed(ids) });
}

/** The incident's events, and a line about what was skipped (for stderr). */
async function fromAudit(file: string): Promise<{ events: TimedEvent[]; note?: string }> {
  const log = readAuditLog(await readAuditFile(file));
  const skipped = [
    ...(log.foreign > 0 ? [`${log.foreign} lines that are not audit records`] : []),
    ...(log.unreadable > 0 ? [`${log.unreadable} audit records of a shape this version does not read`] : []),
  ];
  if (log.events.length === 0)
    throw usageError('noAuditEvent', { file, foreign: log.foreign, unreadable: log.unreadable });
  return { events: log.events, ...(skipped.length ? { note: `skipped ${skipped.join(' and ')}` } : {}) };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout.write(help(cliLang(argv, io.env)));
    return EXIT.ok;
  }
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'from-audit': { type: 'string' },
      incident: { type: 'string' },
      lang: { type: 'string' },
      output: { type: 'string', short: 'o' },
      tz: { type: 'string' },
    },
  });
  if (positionals.length > 0) throw usageError('noArguments', { command: 'postmortem', given: positionals });
  const chosen = options(values, io);
  const file = values['from-audit'];
  if (file === undefined && values.incident === undefined) throw usageError('whichIncident', {});
  const source =
    file !== undefined
      ? await fromAudit(file)
      : await (await import('../incident-source.js')).fromRedis(values.incident ?? '', io.env);
  const id = chooseIncident(incidentIds(source.events), values.incident);
  const record = buildIncidentRecord(id, source.events);
  // The draft quotes what the audit log holds (cluster and chat text): a CI log that
  // prints it must not read a line as a workflow command, as with every other command.
  io.stdout.write(
    ciSafeText(
      chosen.output === 'json'
        ? `${escapeJsonControls(JSON.stringify(record, null, 2))}\n`
        : renderPostmortem(record, { lang: chosen.lang, zone: chosen.zone }),
    ),
  );
  // Said once the draft is out: an error above is then the one line a failure prints.
  if (chosen.tzIgnored !== undefined)
    io.stderr.write(
      `rollout-doctor postmortem: ${usageWords(chosen.lang, 'tzNotRead', {
        variable: 'TZ',
        value: chosen.tzIgnored,
        scheme: 'IANA',
        example: 'Asia/Seoul',
        fixed: 'KST-9',
      })}\n`,
    );
  if (source.note)
    io.stderr.write(`rollout-doctor postmortem: ${cleanText(source.note, { singleLine: true })}\n`);
  return EXIT.ok;
}
