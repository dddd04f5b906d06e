import { writeFileSync } from 'node:fs';

/**
 * Writes a kubeconfig whose one context points at a loopback port nobody answers on
 * (127.0.0.1:9, discard): a command that reaches for the cluster exits 3 there, while
 * one that could not read its kubeconfig exits 2.
 */
export function writeUnreachableKubeconfig(file: string): string {
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: c, cluster: {server: "http://127.0.0.1:9", insecure-skip-tls-verify: true}}]',
      'users: [{name: u, user: {token: t}}]',
      'contexts: [{name: x, context: {cluster: c, user: u}}]',
      'current-context: x',
      '',
    ].join('\n'),
  );
  return file;
}
