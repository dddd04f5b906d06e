import { describe, expect, it } from 'vitest';
import { firingRootMessage, rootNote, saysMore } from '../../src/app/alerts/messages.js';
import { allowedLink } from '../../src/chat/slack/blocks/mrkdwn.js';
import { renderMessage, toMrkdwn } from '../../src/chat/slack/render.js';
import type { AlertThreadJob } from '../../src/queue/alert-jobs.js';

const HOSTS = ['alertmanager.example:9093', 'prometheus.example'];

describe('the alert thread root says each thing once (issue 31.5)', () => {
  it('a summary that only repeats the alert name and "firing" is left out; one that says more stays', () => {
    expect(saysMore('KubePodCrashLooping is firing', ['KubePodCrashLooping'])).toBe(false);
    expect(saysMore('Alert KubePodCrashLooping has fired', ['KubePodCrashLooping'])).toBe(false);
    expect(saysMore('Pod is crash looping.', ['KubePodCrashLooping'])).toBe(true);
    const root = JSON.stringify(
      renderMessage(
        firingRootMessage(
          'KubePodCrashLooping on shop/deployment/checkout (cluster prod)',
          'KubePodCrashLooping is firing',
          ['KubePodCrashLooping'],
        ),
      ).blocks,
    );
    expect(root.match(/KubePodCrashLooping/g)).toHaveLength(1);
  });
});

describe('links to the operator’s Alertmanager and Prometheus only', () => {
  it('a URL on a listed host is a link with our label', () => {
    expect(
      allowedLink('http://alertmanager.example:9093/#/alerts?receiver=x&a=b', 'Alertmanager', HOSTS),
    ).toBe('<http://alertmanager.example:9093/#/alerts?receiver=x&amp;a=b|Alertmanager>');
    expect(allowedLink('https://prometheus.example/graph?g0.expr=up', 'Prometheus', HOSTS)).toBe(
      '<https://prometheus.example/graph?g0.expr=up|Prometheus>',
    );
  });

  it.each([
    ['another host', 'http://evil.example:9093/'],
    ['a listed name on another port', 'http://prometheus.example:9999/'],
    ['a look-alike host', 'http://alertmanager.example.evil.example:9093/'],
    ['credentials before the host', 'http://alertmanager.example:9093@evil.example/'],
    ['user info on a listed host', 'http://user:pw@alertmanager.example:9093/'],
    ['another scheme', 'javascript://alertmanager.example:9093/%0aalert(1)'],
    ['a pipe that would relabel the link', 'http://alertmanager.example:9093/|Click here'],
    ['not a URL', 'alertmanager.example:9093'],
  ])('%s is not a link', (_what, url) => {
    expect(allowedLink(url, 'Alertmanager', HOSTS)).toBeNull();
  });

  it('the root note links a listed Alertmanager and shows any other as defanged text', () => {
    const job = { truncatedAlerts: 0, externalURL: 'http://alertmanager.example:9093' } as AlertThreadJob;
    const note = (j: AlertThreadJob, hosts?: string[]): string => toMrkdwn(rootNote(j, hosts) ?? []);
    expect(note(job, HOSTS)).toContain('<http://alertmanager.example:9093/|Alertmanager>');
    const other = note({ ...job, externalURL: 'https://evil.example/login' }, HOSTS);
    expect(other).not.toContain('<https://');
    expect(other).toContain('evil.example');
    expect(note(job)).not.toContain('<http');
  });
});
