/**
 * `propose` into a Helm chart's values on the real git server: the values key that sets
 * each field found by rendering the chart with the real helm, the values file edited in
 * place, the render checked; a field no value sets is said with its template.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { proposeHarness } from '../support/propose-harness.js';

const h = proposeHarness();
const CHART = 'charts/tracker';
const changed = (stdout: string): string[] => stdout.split('\n').filter((l) => /^[-+](?![-+])/.test(l));

describe('propose to a Helm chart', () => {
  it('finds the values keys that set maxSurge and maxUnavailable and edits values.yaml in place', async () => {
    const { url } = await h.repo('propose/helm');
    const result = await h.propose(url, ['--path', CHART, '--dry-run']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // type is already RollingUpdate in the template: nothing to set for it.
    expect(changed(result.stdout)).toEqual([
      '-  maxSurge: 25%        # one extra pod',
      '-  maxUnavailable: 25%',
      '+  maxSurge: 0 # one extra pod',
      '+  maxUnavailable: 1',
    ]);
    expect(result.stdout).toContain(
      'Check on helm template vision-object-tracker charts/tracker: it starts no rollout now (the pod template is unchanged); the next rollout (any change to the pod template) will finish.',
    );
  });

  it('a strategy written whole with toYaml from an empty map: the keys go under that map', async () => {
    const { url } = await h.repo('propose/helm', (dir) => {
      const template = join(dir, CHART, 'templates/deployment.yaml');
      writeFileSync(
        template,
        readFileSync(template, 'utf8').replace(
          / {2}strategy:\n[\s\S]*?maxUnavailable \}\}\n/,
          '  {{- with .Values.strategy }}\n  strategy:\n    {{- toYaml . | nindent 4 }}\n  {{- end }}\n',
        ),
      );
      writeFileSync(
        join(dir, CHART, 'values.yaml'),
        '# Values.\nimage: registry.example.com/vision/object-tracker:2.4.1\ngpuNode: gpu-node-1\nstrategy: {}\nservice:\n  port: 80\n',
      );
    });
    const result = await h.propose(url, ['--path', CHART, '--dry-run']);
    expect(result.stderr).toBe('');
    expect(changed(result.stdout)).toEqual([
      '-strategy: {}',
      '+strategy:',
      '+  type: RollingUpdate',
      '+  rollingUpdate:',
      '+    maxSurge: 0',
      '+    maxUnavailable: 1',
    ]);
  });

  it('no value sets the field: says so and names the template (exit 1)', async () => {
    const { url } = await h.repo('propose/helm', (dir) => {
      const template = join(dir, CHART, 'templates/deployment.yaml');
      writeFileSync(
        template,
        readFileSync(template, 'utf8').replace('{{ .Values.rollout.maxSurge }}', '25%'),
      );
    });
    const result = await h.propose(url, ['--path', CHART]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'Not proposed: no value of the chart sets spec.strategy.rollingUpdate.maxSurge: tracker/templates/deployment.yaml writes it, so that template is the change to make.',
    );
    expect(h.github().requests).toEqual([]);
  });

  it('a values file with anchors and aliases (an alias bomb) is refused, nothing pushed', async () => {
    const { url } = await h.repo('propose/helm', (dir) =>
      writeFileSync(
        join(dir, CHART, 'values.yaml'),
        'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nrollout: {maxSurge: 1, maxUnavailable: 0}\n',
      ),
    );
    const before = h.pushes();
    const result = await h.propose(url, ['--path', CHART]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('charts/tracker/values.yaml: it uses YAML anchors or aliases');
    expect(h.pushes()).toBe(before);
  });
});
