/**
 * `rollout-doctor explain-scheduling [-o text|json]`: reads one FailedScheduling
 * message on stdin (or as arguments) and prints its structure.
 */
import { cleanText, escapeJsonControls } from '../../text/clean.js';
import { parseArgs } from 'node:util';
import {
  parseSchedulingMessage,
  SchedulingMessageError,
  type ParsedSchedulingMessage,
  type SchedulingReason,
} from '../../diagnosis/scheduling-message.js';
import { indent, table } from '../../report/format.js';
import { EXIT, readAll, UsageError, type CliIo } from '../io.js';

const HELP = `Usage: rollout-doctor explain-scheduling [-o text|json] [MESSAGE...]

Explains one kube-scheduler FailedScheduling message, read from stdin unless given
as arguments, for example:
  kubectl get events --field-selector reason=FailedScheduling -o jsonpath='{.items[-1:].message}' \\
    | rollout-doctor explain-scheduling -o json
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(argv);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json')
    throw new UsageError(`-o must be text or json, not "${output}"`);

  let text = positionals.join(' ');
  if (!text) {
    if (io.stdin.isTTY) io.stderr.write('Paste the FailedScheduling message, then press Ctrl-D.\n');
    text = await readAll(io.stdin);
  }
  let parsed: ParsedSchedulingMessage;
  try {
    parsed = parseSchedulingMessage(text);
  } catch (error) {
    if (error instanceof SchedulingMessageError) throw new UsageError(error.message);
    throw error;
  }
  io.stdout.write(
    output === 'json'
      ? escapeJsonControls(`${JSON.stringify(parsed, null, 2)}\n`)
      : cleanText(renderParsed(parsed)),
  );
  return EXIT.ok;
}

function parseOptions(argv: string[]): {
  values: { output?: string; help?: boolean };
  positionals: string[];
} {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The parse as a short table per part. */
export function renderParsed(parsed: ParsedSchedulingMessage): string {
  const rows = (reasons: SchedulingReason[]): string[][] =>
    reasons.map((r) => [
      String(r.count),
      r.reason,
      r.resource ? `${r.category} (${r.resource})` : r.category,
    ]);
  const lines: string[] = [];
  if (parsed.total === 0) {
    lines.push('The cluster had no nodes the scheduler could consider (0 nodes).');
  } else {
    lines.push(`None of the ${parsed.total} node(s) could take the pod:`);
    if (parsed.reasons.length > 0)
      lines.push(...indent(table(['NODES', 'REASON', 'CATEGORY'], rows(parsed.reasons)), 2));
  }
  for (const note of parsed.notes ?? []) lines.push(`Also reported: ${note}`);
  const p = parsed.preemption;
  if (!p) {
    lines.push('No preemption result in the message (older scheduler, or preemption disabled).');
  } else if (p.text !== undefined) {
    lines.push(`Preemption: ${p.text}.`);
  } else {
    lines.push(`Preemption (evicting lower-priority pods) considered ${p.total} node(s):`);
    if (p.reasons.length > 0)
      lines.push(
        ...indent(
          table(
            ['NODES', 'REASON'],
            p.reasons.map((r) => [String(r.count), r.reason]),
          ),
          2,
        ),
      );
  }
  lines.push(
    'Counts are per reason; one node can fail for several reasons, so they may add up to more than the total.',
  );
  return `${lines.join('\n')}\n`;
}
