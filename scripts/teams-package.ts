/**
 * Builds the Teams app package people upload (Teams admin center, or "Upload a custom
 * app"): a zip of manifest.json and its two icons.
 *
 *   npm run teams:package -- --app-id <TEAMS_APP_ID> [--out rollout-doctor-teams.zip]
 *        [--developer-url https://…] [--privacy-url https://…] [--terms-url https://…]
 *
 * The manifest (schema 1.19) declares one bot, the app registration's id, in channels,
 * group chats and personal chats, with its commands for the compose box. The icons are
 * drawn here (a 192×192 colour icon and a 32×32 white outline on transparency, as the
 * manifest requires) so the package needs no binary in the repository.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { refuse, scriptArgs, type ScriptIo } from './script-args.js';

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const MANIFEST_SCHEMA =
  'https://developer.microsoft.com/en-us/json-schemas/teams/v1.19/MicrosoftTeams.schema.json';

const optionsSchema = z.object({
  appId: z.string().regex(GUID, '--app-id must be the bot’s Microsoft App ID (TEAMS_APP_ID, a GUID)'),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  developerUrl: z.url({ protocol: /^https$/ }),
  privacyUrl: z.url({ protocol: /^https$/ }),
  termsUrl: z.url({ protocol: /^https$/ }),
});
export type PackageOptions = z.infer<typeof optionsSchema>;

const COMMANDS = [
  { title: 'diagnose', description: 'Why is a rollout stuck? diagnose deployment/NAME -n NAMESPACE' },
  { title: 'scan', description: 'Find stuck or at-risk workloads: scan -n NAMESPACE' },
  { title: 'help', description: 'What rollout-doctor can do' },
];

/** The app manifest for `options`. */
export function teamsManifest(options: PackageOptions): Record<string, unknown> {
  const o = optionsSchema.parse(options);
  const scopes = ['team', 'groupChat', 'personal'];
  return {
    $schema: MANIFEST_SCHEMA,
    manifestVersion: '1.19',
    version: o.version,
    id: o.appId,
    developer: {
      name: 'rollout-doctor',
      websiteUrl: o.developerUrl,
      privacyUrl: o.privacyUrl,
      termsOfUseUrl: o.termsUrl,
    },
    name: { short: 'rollout-doctor', full: 'rollout-doctor: stuck Kubernetes rollouts' },
    description: {
      short: 'Diagnose Kubernetes rollouts that can never finish',
      full: 'Mention @rollout-doctor with diagnose deployment/NAME -n NAMESPACE. It reads the cluster, says why the rollout is stuck with the evidence, and offers a fix that an approver applies from the card.',
    },
    icons: { color: 'color.png', outline: 'outline.png' },
    accentColor: '#2E6BD9',
    bots: [
      {
        botId: o.appId,
        scopes,
        isNotificationOnly: false,
        supportsFiles: false,
        commandLists: [{ scopes, commands: COMMANDS }],
      },
    ],
    permissions: ['identity', 'messageTeamMembers'],
    validDomains: [],
  };
}

/** A PNG (RGBA, 8 bits) of `size`×`size` from `pixel(x, y)`. */
export function png(
  size: number,
  pixel: (x: number, y: number) => readonly [number, number, number, number],
): Buffer {
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    rows[row] = 0;
    for (let x = 0; x < size; x++) Buffer.from(pixel(x, y)).copy(rows, row + 1 + x * 4);
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A ring with a tick: inside the ring when `distance` from the centre is within the band. */
function mark(size: number, x: number, y: number): boolean {
  const c = size / 2;
  const d = Math.hypot(x + 0.5 - c, y + 0.5 - c) / c;
  const ring = d > 0.62 && d < 0.8;
  const u = (x + 0.5) / size;
  const v = (y + 0.5) / size;
  // A check mark: (0.30, 0.52) down to (0.44, 0.66), then up to (0.70, 0.36).
  const tick =
    (Math.abs(v - (u + 0.22)) < 0.05 && u > 0.3 && u <= 0.45) ||
    (Math.abs(v - (0.66 - 1.154 * (u - 0.44))) < 0.06 && u > 0.43 && u < 0.7);
  return ring || tick;
}

export function icons(): { color: Buffer; outline: Buffer } {
  const color = png(192, (x, y) => (mark(192, x, y) ? [255, 255, 255, 255] : [46, 107, 217, 255]));
  const outline = png(32, (x, y) => (mark(32, x, y) ? [255, 255, 255, 255] : [0, 0, 0, 0]));
  return { color, outline };
}

/** 1980-01-01, the earliest DOS date: the same bytes on every build. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** A zip (deflate) of `files`, in order; enough for the Teams package (no zip64). */
export function zip(files: readonly { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const packed = deflateRawSync(file.data);
    const crc = crc32(file.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(file.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export function teamsPackage(options: PackageOptions): Buffer {
  const { color, outline } = icons();
  return zip([
    { name: 'manifest.json', data: Buffer.from(`${JSON.stringify(teamsManifest(options), null, 2)}\n`) },
    { name: 'color.png', data: color },
    { name: 'outline.png', data: outline },
  ]);
}

const USAGE = `Usage: npm run teams:package -- --app-id <TEAMS_APP_ID> [--out FILE]
         [--developer-url https://…] [--privacy-url https://…] [--terms-url https://…]

Writes the Teams app package (manifest.json, color.png, outline.png) people upload in
the Teams admin center or with "Upload a custom app" (docs/teams.md).
  --app-id ID          the bot's Microsoft App ID (TEAMS_APP_ID, a GUID); required
  --out FILE           where to write the zip (default rollout-doctor-teams.zip)
  --developer-url URL  the developer's https page (default the project's)
  --privacy-url URL    the privacy statement (default the developer URL)
  --terms-url URL      the terms of use (default the developer URL)
  -h, --help           this text
`;

/**
 * The command line: 0 with the package written (or the usage shown), 2 on bad input,
 * with one line and the usage on stderr, never a stack.
 */
export function runTeamsPackage(argv: string[], io: ScriptIo, version: string): number {
  const args = scriptArgs(
    'teams:package',
    USAGE,
    {
      'app-id': { type: 'string' },
      out: { type: 'string', default: 'rollout-doctor-teams.zip' },
      'developer-url': { type: 'string', default: 'https://github.com/rollout-doctor/rollout-doctor' },
      'privacy-url': { type: 'string' },
      'terms-url': { type: 'string' },
    },
    argv,
    io,
  );
  if ('exit' in args) return args.exit;
  const { values } = args;
  const developerUrl = values['developer-url'];
  const parsed = optionsSchema.safeParse({
    appId: values['app-id'] ?? '',
    version,
    developerUrl,
    privacyUrl: values['privacy-url'] ?? developerUrl,
    termsUrl: values['terms-url'] ?? developerUrl,
  });
  if (!parsed.success)
    return refuse('teams:package', USAGE, parsed.error.issues.map((i) => i.message).join('; '), io);
  writeFileSync(values.out, teamsPackage(parsed.data));
  io.out(`wrote ${values.out} (manifest.json, color.png, outline.png) for bot ${parsed.data.appId}\n`);
  return 0;
}

// Run as a script (through tsx or as JavaScript), not imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { version } = z
    .object({ version: z.string() })
    .parse(JSON.parse(readFileSync('package.json', 'utf8')));
  process.exitCode = runTeamsPackage(
    process.argv.slice(2),
    { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
    version,
  );
}
