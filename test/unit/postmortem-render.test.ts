/**
 * The post-mortem draft (src/postmortem/render.ts): seed incident A's record in English
 * and Korean, shaped like the seeds, its timeline in order with UTC and local times,
 * and cluster text that stays text however hostile.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit.js';
import { registeredCatalogues } from '../../src/i18n/catalogue.js';
import { LANGS } from '../../src/i18n/lang.js';
import { buildIncidentRecord } from '../../src/postmortem/build.js';
import { mdCode, mdFence, mdText } from '../../src/postmortem/markdown.js';
import { renderPostmortem } from '../../src/postmortem/render.js';
import { postmortemWords } from '../../src/postmortem/words.js';
import { seedIncidentEvents, T0 } from '../support/postmortem-incident.js';

const ID = 'default/vision/object-tracker';

/** The fenced code blocks of `markdown` as CommonMark closes them (§4.5), and the lines outside them. */
function blocks(markdown: string): { fences: string[]; outside: string[] } {
  const fences: string[] = [];
  const outside: string[] = [];
  let open: { ticks: number; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      const close = /^ {0,3}(`+)\s*$/.exec(line);
      if (close && (close[1]?.length ?? 0) >= open.ticks) {
        fences.push(open.lines.join('\n'));
        open = undefined;
      } else open.lines.push(line);
      continue;
    }
    const start = /^ {0,3}(`{3,})[^`]*$/.exec(line);
    if (start) open = { ticks: start[1]?.length ?? 3, lines: [] };
    else outside.push(line);
  }
  expect(open, 'a fence left open').toBeUndefined();
  return { fences, outside };
}

describe('post-mortem draft', () => {
  const events = seedIncidentEvents();
  const record = buildIncidentRecord(ID, events);

  it('is shaped like the seeds, in Korean', () => {
    const ko = renderPostmortem(record, { lang: 'ko', zone: 'Asia/Seoul' });
    const headings = ko.split('\n').filter((l) => /^#{1,2} /.test(l));
    expect(headings).toEqual([
      '# 포스트모템: `vision` 네임스페이스의 `Deployment` `object-tracker` (클러스터 `default`)',
      '## 요약',
      '## 타임라인',
      '## 영향',
      '# 분석',
      '## 에러 메시지 분석',
      '# 해결',
      '## 대안',
      '## 채택',
      '# 결과',
      '## 후속 조치',
      '# 교훈',
    ]);
    expect(ko).toContain('첫 신호: Alertmanager 알림');
    expect(ko).toContain(
      '| 2026-11-27 09:41:00 | 2026-11-27 18:41:00 | `U0APPROVER`: `set-rolling-update` 승인. 적용 시작 |',
    );
    expect(ko).toContain('maxSurge: 0');
    expect(ko).not.toMatch(/\b(Summary|Timeline|approved|Result)\b/);
  });

  it('in English, with the timeline in order, in UTC and the reader’s zone, and the record’s facts', () => {
    const en = renderPostmortem(record, { lang: 'en', zone: 'America/New_York' });
    const rows = en.split('\n').filter((l) => /^\| 2026-/.test(l) && l.split('|').length === 5);
    expect(rows.map((r) => r.split(' | ')[0]?.slice(2))).toEqual(
      record.timeline.map((e) => e.at.slice(0, 19).replace('T', ' ')),
    );
    expect(rows[0]).toBe(
      '| 2026-11-27 09:40:00 | 2026-11-27 04:40:00 | First signal: an Alertmanager alert |',
    );
    expect(en).toContain('| UTC | America/New\\_York (GMT-5) | What happened |');
    const { fences } = blocks(en);
    expect(fences).toContain(record.diagnoses[0]?.findings[0]?.messages[0]);
    expect(en).toContain('- Result: the rollout completed at 2026-11-27 09:41:35 UTC.');
    expect(en).toContain('Approved by `U0APPROVER`.');
    for (const plan of record.diagnoses[0]?.offered ?? []) expect(en).toContain(`- \`${plan.kind}\`: `);
    expect(en).toContain('- Lowest recorded: 1 of 1 desired replicas available.');
  });

  it('says what the record does not know instead of leaving it empty', () => {
    const partial = buildIncidentRecord(
      ID,
      events.filter((e) => e.event.action !== 'diagnosis'),
    );
    const en = renderPostmortem(partial, { lang: 'en', zone: 'UTC' });
    expect(en).toContain('- First signal: not recorded');
    expect(en).toContain('- Serving replicas: not recorded.');
    expect(en).toContain('- Not recorded: the record holds no diagnosis of this incident.');
    const ko = renderPostmortem(partial, { lang: 'ko', zone: 'UTC' });
    expect(ko).toContain('- 서비스 중인 레플리카: 기록 없음.');
  });

  it('keeps hostile cluster text as text: no fence closed from inside, no HTML, link, heading or table cell', () => {
    const hostile = [
      '````',
      '# Owned',
      '<script>alert(1)</script> <img src=x onerror=alert(2)>',
      '[click](https://evil.example) | cell | ![i](https://evil.example/x.png)',
      '~~~',
      '```',
    ].join('\n');
    const diagnosis = events.find((e) => e.event.action === 'diagnosis');
    if (diagnosis?.event.action !== 'diagnosis') throw new Error('fixture changed');
    const event: AuditEvent = {
      ...diagnosis.event,
      findings: [
        {
          code: 'CrashLoop',
          severity: 'critical',
          summary: hostile,
          messages: [hostile, 'x\u001b]52;c;ZXZpbA==\u0007y'],
        },
      ],
      offered: [{ id: 'p1', kind: 'delete-pods', summary: hostile }],
      notOffered: [{ kind: 'exclude-node', addresses: 'CrashLoop', reason: hostile }],
    };
    const approval: AuditEvent = {
      action: 'approval',
      planId: 'p1',
      cluster: 'default',
      namespace: 'vision',
      deployment: 'object-tracker',
      kind: 'delete-pods',
      user: 'U1`|<b>x</b>\n# h',
      result: 'claimed',
    };
    const text = renderPostmortem(
      buildIncidentRecord(ID, [
        { at: T0, event },
        { at: T0 + 1, event: approval },
      ]),
      { lang: 'en', zone: 'UTC' },
    );
    const { fences, outside } = blocks(text);
    const cells: number[] = [];
    expect(fences).toContain(hostile);
    expect(fences).toContain('xy');
    for (const line of outside) {
      // Code spans show their text as is: what matters is the rest of the line.
      expect(line.replace(/(?<![\\`])(`+)(?!`).*?[^`]\1(?!`)/g, '')).not.toMatch(
        /^#+ Owned|(?<!\\)<(script|img|b>)|(?<!\\)\]\(https|^~~~/,
      );
      if (line.startsWith('|')) cells.push(line.split(/(?<!\\)\|/).length);
    }
    // Two tables (timeline, impact): every row has as many cells as its header.
    expect(new Set(cells)).toEqual(new Set([5, 6]));
    const approvalRow = outside.find((l) => l.startsWith('| 2026') && l.includes('approved'));
    expect(approvalRow?.split(/(?<!\\)\|/)).toHaveLength(5);
    expect(text).not.toContain('\u001b');
  });

  it('escapes each way in: inline text, code spans, fences', () => {
    expect(mdText('# a *b* <i>c</i> [d](e) www.x.io')).toBe(
      '\\# a \\*b\\* \\<i\\>c\\<\\/i\\> \\[d\\](e) www\\.x.io'.replace('\\/', '/'),
    );
    expect(mdText('1. item')).toBe('1\\. item');
    expect(mdCode('a ``b`` c')).toBe('```a ``b`` c```');
    expect(mdCode('`x')).toBe('`` `x ``');
    expect(mdFence('a\n```\nb', 'diff')).toBe('````diff\na\n```\nb\n````');
  });

  it('tells how the node exclusion ended when the sweep removed it, in the timeline, the later changes and the follow-ups', () => {
    const exclusion: AuditEvent = {
      action: 'exclusion',
      planId: 'rm-1',
      cluster: 'default',
      namespace: 'vision',
      deployment: 'object-tracker',
      cause: 'expired',
      outcome: 'removed',
    };
    const ended = buildIncidentRecord(ID, [...events, { at: T0 + 4 * 3600_000, event: exclusion }]);
    expect(ended.exclusions).toEqual([
      { at: '2026-11-27T13:40:00.000Z', planId: 'rm-1', cause: 'expired', outcome: 'removed' },
    ]);
    const en = renderPostmortem(ended, { lang: 'en', zone: 'UTC' });
    expect(en).toContain('| Node exclusion (expired): removed |');
    expect(en).toContain('- 2026-11-27 13:40:00 UTC, node exclusion (expired): removed.');
    expect(en).not.toContain('No later change in the record');
    const ko = renderPostmortem(ended, { lang: 'ko', zone: 'Asia/Seoul' });
    expect(ko).toContain('노드 제외 (만료): 제거됨');
    // Without the sweep's event the draft says nothing of it.
    expect(renderPostmortem(record, { lang: 'en', zone: 'UTC' })).not.toContain('Node exclusion (');
  });

  it('shows the offset on every row when the zone changes it during the incident', () => {
    const across = buildIncidentRecord(ID, [
      ...events,
      {
        at: Date.parse('2026-11-01T06:30:00Z'),
        event: {
          action: 'exclusion',
          planId: 'rm-1',
          cluster: 'default',
          namespace: 'vision',
          deployment: 'object-tracker',
          cause: 'expired',
          outcome: 'waiting',
        },
      },
      ...events.map((e) => ({ ...e, at: Date.parse('2026-11-01T05:30:00Z') + (e.at - T0) })),
    ]);
    const md = renderPostmortem(across, { lang: 'en', zone: 'America/New_York' });
    expect(md).toContain('| UTC | America/New\\_York | What happened |');
    expect(md).toContain('| 2026-11-01 06:30:00 | 2026-11-01 01:30:00 (GMT-5) |');
    expect(md).toMatch(/\| 2026-11-01 05:30:04 \| 2026-11-01 01:30:04 \(GMT-4\) \|/);
    // One offset all through: the header says it, the rows do not.
    const same = renderPostmortem(record, { lang: 'en', zone: 'America/New_York' });
    expect(same).toContain('| UTC | America/New\\_York (GMT-5) | What happened |');
  });

  it('has every message in both languages, registered for the catalogue test', () => {
    expect(registeredCatalogues().get('postmortem')?.messages).toBe(postmortemWords);
    for (const [key, message] of Object.entries(postmortemWords))
      for (const lang of LANGS) expect(typeof message[lang], `${key} ${lang}`).toBe('function');
  });
});
