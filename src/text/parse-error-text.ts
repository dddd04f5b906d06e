/**
 * Content-free text for a YAML/JSON parse error of a file that may hold secrets
 * (a kubeconfig's token and password, a dump's Secrets, a policy file). Parsers put
 * the offending source in their messages: `yaml` and js-yaml (used by
 * @kubernetes/client-node) append a code frame, JSON.parse quotes the text. Only the
 * position and the parser's error code or reason are kept.
 */

const SAFE_REASON = /^[A-Za-z0-9 ,.()-]{1,120}$/;

/** @kubernetes/client-node's kubeconfig validation messages, and our own. */
const KNOWN_MESSAGES: readonly RegExp[] = [
  /^(clusters|contexts|users)\[\d+\](\.\w+)+ is missing$/,
  /^Duplicate (cluster|context|user): [\w.:@/-]{0,100}$/,
  /^No active cluster!$/,
  /^HTTP protocol is not allowed when skipTLSVerify is not set or false$/,
  /^no KUBECONFIG, no ~\/\.kube\/config, and not running inside a pod$/,
];

interface Position {
  line: number;
  column: number;
}

/** `yaml`'s YAMLError: code like BAD_INDENT, linePos 1-based. */
function yamlLibError(error: object): { what: string; at: Position | undefined } | undefined {
  const { code, linePos } = error as { code?: unknown; linePos?: unknown };
  if (typeof code !== 'string' || !/^[A-Z_]+$/.test(code)) return undefined;
  const first = Array.isArray(linePos)
    ? (linePos[0] as { line?: unknown; col?: unknown } | undefined)
    : undefined;
  const at =
    typeof first?.line === 'number' && typeof first.col === 'number'
      ? { line: first.line, column: first.col }
      : undefined;
  return { what: code, at };
}

/** js-yaml's YAMLException: a reason and a 0-based mark. */
function jsYamlError(error: object): { what: string; at: Position | undefined } | undefined {
  const { name, reason, mark } = error as { name?: unknown; reason?: unknown; mark?: unknown };
  if (name !== 'YAMLException') return undefined;
  const m = mark as { line?: unknown; column?: unknown } | undefined;
  const at =
    typeof m?.line === 'number' && typeof m.column === 'number'
      ? { line: m.line + 1, column: m.column + 1 }
      : undefined;
  return { what: typeof reason === 'string' && SAFE_REASON.test(reason) ? reason : 'syntax error', at };
}

/**
 * @example parseErrorText(e) // "BAD_INDENT at line 3, column 5", "ENOENT", "syntax error at line 2, column 1"
 */
export function parseErrorText(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'not valid YAML or JSON';
  const parsed = yamlLibError(error) ?? jsYamlError(error);
  if (parsed) {
    return parsed.at ? `${parsed.what} at line ${parsed.at.line}, column ${parsed.at.column}` : parsed.what;
  }
  const { code, message } = error as { code?: unknown; message?: unknown };
  // A file system error (ENOENT, EACCES): its code says enough, its message names the path only.
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  // Only messages known to quote nothing pass (a parser's own, such as yaml's
  // "Unresolved alias ...: <alias>", can end with a piece of the file).
  if (typeof message === 'string' && KNOWN_MESSAGES.some((known) => known.test(message))) return message;
  return 'not valid YAML or JSON (details withheld: the file may hold credentials)';
}
