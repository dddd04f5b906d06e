/** Container logs kept by the kubelet stand-in: the current run and the previous one. */
export interface ContainerLogs {
  current: string;
  previous?: string;
}

/** Logs keyed by namespace/pod/container. */
export class LogStore {
  private readonly logs = new Map<string, ContainerLogs>();

  private key(namespace: string, pod: string, container: string): string {
    return `${namespace}/${pod}/${container}`;
  }

  /** The logs of one container, if it ever started. */
  get(namespace: string, pod: string, container: string): ContainerLogs | undefined {
    return this.logs.get(this.key(namespace, pod, container));
  }

  /** Starts a new run: the current log becomes the previous one. */
  restart(namespace: string, pod: string, container: string, firstLines: string): void {
    const k = this.key(namespace, pod, container);
    const existing = this.logs.get(k);
    this.logs.set(k, { current: firstLines, ...(existing ? { previous: existing.current } : {}) });
  }

  /** Appends text to the current run's log. */
  append(namespace: string, pod: string, container: string, text: string): void {
    const k = this.key(namespace, pod, container);
    const existing = this.logs.get(k) ?? { current: '' };
    this.logs.set(k, { ...existing, current: existing.current + text });
  }

  /** Forgets a deleted pod's logs. */
  forgetPod(namespace: string, pod: string): void {
    const prefix = `${namespace}/${pod}/`;
    for (const k of this.logs.keys()) if (k.startsWith(prefix)) this.logs.delete(k);
  }
}
