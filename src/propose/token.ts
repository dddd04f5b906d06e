/**
 * The Git token (docs/propose-in-git.md "Credentials"): a file (a mounted Secret) when
 * one is named, else ROLLOUT_DOCTOR_GIT_TOKEN; never printed. Read by the CLI
 * (`--token-file`) and by a worker (ROLLOUT_DOCTOR_GIT_TOKEN_FILE), the only processes
 * that push.
 */
import { readFile } from 'node:fs/promises';
import { quoted } from '../text/clean.js';

/** A token file that cannot be read or holds no single token: says which, never its content. */
export class TokenFileError extends Error {
  override name = 'TokenFileError';
}

export async function readGitToken(
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  flag = '--token-file',
): Promise<string | undefined> {
  if (file === undefined) return env['ROLLOUT_DOCTOR_GIT_TOKEN'] || undefined;
  let token: string;
  try {
    token = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    throw new TokenFileError(
      `cannot read ${flag} ${quoted(file)}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  if (!token || /\s/.test(token)) throw new TokenFileError(`${flag} ${quoted(file)} holds no single token`);
  return token;
}
