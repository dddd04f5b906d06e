/** In-process streams for running `runCli` in tests. */
import { Readable, Writable } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';

export interface FakeIo {
  io: CliIo;
  stdout: () => string;
  stderr: () => string;
}

export function fakeIo(stdin = '', options: { stdoutTty?: boolean; stdinTty?: boolean } = {}): FakeIo {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (chunks: string[]): Writable =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
  const input = Object.assign(Readable.from([Buffer.from(stdin)]), { isTTY: options.stdinTty });
  const stdout = Object.assign(sink(out), { isTTY: options.stdoutTty });
  return {
    io: { stdin: input, stdout, stderr: sink(err), env: {} },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}
