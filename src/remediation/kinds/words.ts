/**
 * Small helpers the kinds' words share. Pure.
 */

/** "a, b and 3 more": whole names only, as many as fit in `room` characters. */
export function names(list: readonly string[], room: number): string {
  const shown: string[] = [];
  for (const name of list) {
    const rest = list.length - shown.length - 1;
    const next = [...shown, name].join(', ') + (rest > 0 ? ` and ${rest} more` : '');
    if (next.length > room) break;
    shown.push(name);
  }
  if (shown.length === 0) return `${list.length} of them`;
  const rest = list.length - shown.length;
  return shown.join(', ') + (rest > 0 ? ` and ${rest} more` : '');
}

/** `cli apply`'s lines for pods deleted by uid: "  web-1 (uid u1)". */
export function podLines(pods: readonly { name: string; uid: string }[]): string[] {
  return pods.map((pod) => `  ${pod.name} (uid ${pod.uid})`);
}
