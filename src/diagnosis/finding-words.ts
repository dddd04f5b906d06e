/**
 * A finding's headline as data: the facts its English summary is written from, keyed,
 * so that a reader of another language gets the same sentence from the message
 * catalogue (src/report/finding-words.ts) instead of a translation of English prose.
 * Only findings that set it are translated; the others show their English summary.
 * Every string here is cluster text (names), shown as text wherever it goes.
 */
export type FindingWords =
  | {
      readonly key: 'surge-deadlock';
      readonly params: {
        /** The workload, the new Pending pod, the node and what it needs there (a resource name, "host port 8080"). */
        readonly name: string;
        readonly kind: string;
        readonly pod: string;
        readonly node: string;
        readonly need: string;
        /** The old pods holding it, joined with ", ". */
        readonly holders: string;
        readonly maxSurge: number;
        readonly maxUnavailable: number;
        /** Likely, not proved (a read is missing). */
        readonly likely: boolean;
      };
    }
  | {
      readonly key: 'crash-loop-on-node';
      readonly params: {
        readonly name: string;
        /** The nodes it crashes on, and those where the same template runs Ready, joined with ", ". */
        readonly badNodes: string;
        readonly goodNodes: string;
        /** The failing containers' names, joined with ", ". */
        readonly containers: string;
        readonly crashing: number;
        readonly total: number;
        /** The last exit code seen on a crashing node, and its reason; absent: not seen. */
        readonly exitCode?: number;
        readonly reason?: string;
      };
    };
