/**
 * V8 heap settings of the app process, which acks slash commands and so lives on
 * its tail latency. Production starts it as `node <APP_NODE_FLAGS> dist/src/app/main.js`
 * (Dockerfile, docker-compose.yml, deploy/app.yaml; test/unit/ship-consistency.test.ts
 * holds them to this list) and the benchmarks start it the same way. Node refuses
 * these flags in NODE_OPTIONS, so they are part of the command.
 *
 * - A young generation of fixed size (16 MB semi-spaces, V8's default maximum): by
 *   default it starts at 1 MB and shrinks again whenever the process idles, so the
 *   first commands after a quiet spell paid for a burst of scavenges.
 * - An initial heap of 192 MB: the old generation is not collected until it fills
 *   it, so the short-lived request garbage that survives a scavenge no longer
 *   triggers a mark-compact every 2 to 3 seconds at 200 commands per second.
 *
 * `npm run bench` measures it (docs/benchmarks.md): the same load sent in turn to
 * the app with these flags and to a copy on Node's defaults gave p99 3.1 against
 * 6.3 ms and 4.3 against 6.0 ms at 200 commands/s, for about 80 MB more peak RSS
 * (≈225 MB against ≈145 MB after a minute of that load).
 */
export const APP_NODE_FLAGS: readonly string[] = [
  '--min-semi-space-size=16',
  '--max-semi-space-size=16',
  '--initial-heap-size=192',
];
