import { describe, expect, it } from 'vitest';
import { readablePath } from '../../src/remediation/json-pointer.js';

describe('field paths as people read them (issue 31.5)', () => {
  it.each([
    ['/spec/strategy/rollingUpdate/maxSurge', 'spec.strategy.rollingUpdate.maxSurge'],
    [
      '/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt',
      'spec.template.metadata.annotations[kubectl.kubernetes.io/restartedAt]',
    ],
    ['/spec/template/spec/containers/0/image', 'spec.template.spec.containers[0].image'],
    ['/metadata/labels/a~0b', 'metadata.labels.a~b'],
    ['replicasets/web-6d4f/spec/replicas', 'replicasets/web-6d4f/spec/replicas'],
  ])('%s reads as %s', (pointer, readable) => {
    expect(readablePath(pointer)).toBe(readable);
  });
});
