/**
 * rollout-doctor command line. Each subcommand lives in ./commands/ and exports
 * `run(argv, io)`, returning the process exit status (DESIGN.md §3):
 * 0 no problem found, 1 problems found, 2 bad arguments or input,
 * 3 cluster unreachable or forbidden, 4 internal error.
 */
import { runCli } from './run-cli.js';
import { dropOutputToClosedReaders, exitFourOnStrayErrors } from './stray-errors.js';

const argv = process.argv.slice(2);
exitFourOnStrayErrors(process, argv[0]);
dropOutputToClosedReaders(process.stdout, process.stderr);

process.exitCode = await runCli(argv, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
