// Preloaded (`node --import`) into a benchmarked child: reports its peak resident set
// size at exit on stderr, where bench/dump-size.ts reads it.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nmax-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
