/**
 * The command line of a script (`npm run NAME -- …`), read the same way by each: `-h` or
 * `--help` prints its usage on stdout (exit 0); an unknown option, a missing value or a
 * stray argument prints one line and the usage on stderr (exit 2), never a stack.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface ScriptIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const PROCESS_IO: ScriptIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O }>>['values'];

/**
 * `argv` read against `options` (a `help` option is added): the values, or the exit
 * status when the usage was printed (0, asked for) or the input refused (2).
 *
 * @example const args = scriptArgs('bench', USAGE, {}); if ('exit' in args) process.exit(args.exit);
 */
export function scriptArgs<const O extends Options>(
  name: string,
  usage: string,
  options: O,
  argv: string[] = process.argv.slice(2),
  io: ScriptIo = PROCESS_IO,
): { values: Values<O> } | { exit: 0 | 2 } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    io.err(`${name}: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return { exit: 2 };
  }
  if ((parsed.values as { help?: boolean }).help === true) {
    io.out(usage);
    return { exit: 0 };
  }
  return { values: parsed.values as Values<O> };
}

/** A refusal after parsing (a value out of range): one line and the usage on stderr, status 2. */
export function refuse(name: string, usage: string, message: string, io: ScriptIo = PROCESS_IO): 2 {
  io.err(`${name}: ${message}\n\n${usage}`);
  return 2;
}
