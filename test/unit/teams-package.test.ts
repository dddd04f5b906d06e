/**
 * The Teams app package: a zip `unzip` reads, holding manifest.json (schema 1.19, the bot
 * by its app id in channels, group chats and personal chats) and PNG icons of the sizes
 * the manifest requires (192×192 colour, 32×32 outline).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamsPackage } from '../../scripts/teams-package.js';

const APP_ID = '00000000-0000-4000-8000-0000000000aa';

function unpacked() {
  const dir = mkdtempSync(join(tmpdir(), 'teams-package-'));
  const file = join(dir, 'app.zip');
  writeFileSync(
    file,
    teamsPackage({
      appId: APP_ID,
      version: '1.2.3',
      developerUrl: 'https://example.com',
      privacyUrl: 'https://example.com/privacy',
      termsUrl: 'https://example.com/terms',
    }),
  );
  execFileSync('unzip', ['-q', '-t', file]);
  const read = (name: string) => execFileSync('unzip', ['-p', file, name]);
  return { list: execFileSync('unzip', ['-Z1', file]).toString().trim().split('\n'), read };
}

const pngSize = (data: Buffer) => ({ width: data.readUInt32BE(16), height: data.readUInt32BE(20) });

describe('Teams app package', () => {
  it('holds the manifest and the two icons, and unzip finds no error', () => {
    const { list, read } = unpacked();
    expect(list).toEqual(['manifest.json', 'color.png', 'outline.png']);
    const manifest = JSON.parse(read('manifest.json').toString());
    expect(manifest).toMatchObject({
      manifestVersion: '1.19',
      version: '1.2.3',
      id: APP_ID,
      icons: { color: 'color.png', outline: 'outline.png' },
      bots: [{ botId: APP_ID, scopes: ['team', 'groupChat', 'personal'], isNotificationOnly: false }],
    });
    expect(manifest.bots[0].commandLists[0].commands.map((c: { title: string }) => c.title)).toEqual([
      'diagnose',
      'scan',
      'help',
    ]);
    expect(pngSize(read('color.png'))).toEqual({ width: 192, height: 192 });
    expect(pngSize(read('outline.png'))).toEqual({ width: 32, height: 32 });
  });

  it('refuses an app id that is not a GUID', () => {
    expect(() =>
      teamsPackage({
        appId: 'my-bot',
        version: '1.0.0',
        developerUrl: 'https://example.com',
        privacyUrl: 'https://example.com',
        termsUrl: 'https://example.com',
      }),
    ).toThrow(/app-id/);
  });
});
