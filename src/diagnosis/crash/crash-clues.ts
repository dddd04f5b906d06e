/**
 * The decisive clue of a crash: a line of the failing container's termination
 * message or previous log that names a cause the node can explain (an instruction
 * set the CPU lacks, a binary for another architecture, a read-only file system, a
 * cgroup or syscall the kernel does not offer, too many open files, a host glibc,
 * memory, a device's hardware fault), and the node difference it points at.
 */
import type { ContainerReport } from './container-failures.js';
import type { NodeDifference } from './node-diff.js';

type ClueKind =
  | 'cpu-instructions'
  | 'exec-format'
  | 'read-only-fs'
  | 'cgroup'
  | 'syscall'
  | 'open-files'
  | 'glibc'
  | 'out-of-memory'
  | 'device-error'
  | 'gpu-driver';

export interface CrashClue {
  kind: ClueKind;
  /** The line that carries the clue, trimmed (untrusted text: renderers escape it). */
  text: string;
  source: 'termination-message' | 'log';
  pod: string;
  container: string;
  /** The node-diff field the clue points at, when a difference matches it. */
  pointsAt?: string;
  /** What the clue means, in one sentence. */
  meaning: string;
}

const INSTRUCTION_SET =
  /\b(AVX-?512[A-Z_]*|AVX-?VNNI|AVX2|AVX|SSE4[._]?[12]|SSSE3|SSE3|FMA3?|BMI2|F16C|POPCNT|x86-64-v[234]|SVE2?|NEON|ARMv8\.\d)\b/i;
const MISSING =
  /not supported|unsupported|requires?\b|required|missing|illegal|lacks|does ?n[o']t support|not available|aren't available|isn't available|no support|compiled to use/i;

interface Pattern {
  kind: ClueKind;
  test: (line: string) => boolean;
  meaning: string;
}

const PATTERNS: Pattern[] = [
  {
    kind: 'cpu-instructions',
    test: (l) =>
      /illegal instruction|\bSIGILL\b|invalid opcode|illegal hardware instruction|CPU does not support/i.test(
        l,
      ) ||
      (INSTRUCTION_SET.test(l) && MISSING.test(l)),
    meaning:
      "the binary uses CPU instructions that this node's processor lacks (an older CPU model or generation)",
  },
  {
    kind: 'exec-format',
    test: (l) => /exec format error/i.test(l),
    meaning: "the image's binary is built for another CPU architecture than the node's",
  },
  {
    kind: 'read-only-fs',
    test: (l) => /read-only file ?system|\bEROFS\b/i.test(l),
    meaning: 'a file system the container writes to is read-only on this node',
  },
  {
    kind: 'cgroup',
    test: (l) =>
      /cgroup/i.test(l) &&
      /not supported|unsupported|no such file|not found|not mounted|cannot|failed|error/i.test(l),
    meaning: 'the container expects a cgroup layout (v1 or v2) or controller that this node does not provide',
  },
  {
    kind: 'syscall',
    test: (l) =>
      /function not implemented|\bENOSYS\b|bad system call|\bSIGSYS\b/i.test(l) ||
      (/seccomp/i.test(l) && /denied|blocked|fail|not permitted/i.test(l)) ||
      (/io_uring/i.test(l) && /fail|not permitted|not supported|EPERM|ENOSYS/i.test(l)),
    meaning: "a system call the program needs is missing or blocked by this node's kernel or runtime",
  },
  {
    kind: 'open-files',
    test: (l) => /too many open files|\bEMFILE\b|ulimit/i.test(l),
    meaning: "the container hits the node's open-file limit (runtime or kernel defaults)",
  },
  {
    kind: 'glibc',
    test: (l) => /GLIBC_\d+\.\d+'? not found|version `GLIBC/i.test(l),
    meaning: 'a library mounted from the host (or the host glibc) is older than the binary needs',
  },
  {
    kind: 'out-of-memory',
    test: (l) => /out of memory|\bOOMKilled\b|cannot allocate memory|\bENOMEM\b|oom-kill/i.test(l),
    meaning: 'the process ran out of memory',
  },
  {
    // After memory: "CUDA error: out of memory" is the program's, not the device's.
    kind: 'device-error',
    test: (l) =>
      /uncorrectable ECC|ECC error|\bXid\b|fallen off the bus|cudaErrorECC|NVRM|device lost|hardware error|machine check/i.test(
        l,
      ),
    meaning:
      'the device the container uses on this node (a GPU or another accelerator) reports a hardware fault',
  },
  {
    // The node's NVIDIA kernel module and user-space library out of step (a driver
    // upgraded without a reboot), or no driver the container runtime can use there.
    kind: 'gpu-driver',
    test: (l) =>
      /Failed to initialize NVML|Driver\/library version mismatch|NVIDIA driver on your system is too old|CUDA driver version is insufficient|nvidia-container-cli: initialization error|NVIDIA-SMI has failed/i.test(
        l,
      ),
    meaning:
      "the node's GPU driver does not work for the container (kernel module and user-space library of different versions, or a driver too old)",
  },
];

/** Per clue kind, which node differences it can point at, best first. */
const TARGETS: Record<ClueKind, ((d: NodeDifference) => boolean)[]> = {
  'cpu-instructions': [
    (d) => d.category === 'cpu' && d.field.startsWith('label feature.node.kubernetes.io/cpu-'),
    (d) => d.field === 'architecture',
    (d) => d.category === 'cpu',
    (d) => /instance-type|instance-family|instance-generation|machine-family/.test(d.field),
  ],
  'exec-format': [(d) => d.field === 'architecture', (d) => d.category === 'cpu'],
  'read-only-fs': [
    (d) => d.field === 'condition ReadonlyFilesystem',
    (d) => d.category === 'condition' && /read.?only|filesystem|disk/i.test(d.field),
    (d) => d.category === 'condition',
  ],
  cgroup: [
    (d) => d.field === 'kernelVersion',
    (d) => d.field === 'osImage',
    (d) => d.field === 'containerRuntimeVersion',
    (d) => d.category === 'kernel' || d.category === 'os',
  ],
  syscall: [
    (d) => d.field === 'kernelVersion',
    (d) => d.category === 'kernel',
    (d) => d.field === 'containerRuntimeVersion',
    (d) => d.field === 'osImage',
  ],
  'open-files': [
    (d) => d.field === 'containerRuntimeVersion',
    (d) => d.field === 'osImage',
    (d) => d.field === 'kernelVersion',
  ],
  glibc: [(d) => d.field === 'osImage', (d) => d.category === 'os'],
  'out-of-memory': [
    (d) => d.field === 'condition MemoryPressure',
    (d) => d.category === 'condition',
    (d) => /instance-type/.test(d.field),
  ],
  'device-error': [(d) => d.category === 'condition', (d) => /gpu|accelerator|nvidia/i.test(d.field)],
  'gpu-driver': [
    (d) => /nvidia|gpu|cuda/i.test(d.field),
    (d) => d.field === 'kernelVersion',
    (d) => d.field === 'osImage',
  ],
};

/** The instruction set a clue line names ("AVX-512", "AVX2"), as written; letters, digits and -._ only. */
export function namedInstructionSet(line: string): string | undefined {
  return INSTRUCTION_SET.exec(line)?.[1];
}

/** Finds a CPU-feature difference naming the instruction set the line mentions (AVX2 → cpu-cpuid.AVX2). */
function instructionTarget(line: string, differences: readonly NodeDifference[]): NodeDifference | undefined {
  const named = INSTRUCTION_SET.exec(line)?.[1];
  if (!named) return undefined;
  const key = named.toUpperCase().replace(/[-._]/g, '');
  const family = key.startsWith('AVX512') ? 'AVX512' : key;
  return differences.find((d) => {
    if (!d.field.startsWith('label feature.node.kubernetes.io/cpu-')) return false;
    const feature = d.field.slice(d.field.lastIndexOf('.') + 1).toUpperCase();
    return family === 'AVX512' ? feature.startsWith('AVX512') : feature === family;
  });
}

/** The difference the clue points at, if any. */
function clueTarget(
  kind: ClueKind,
  text: string,
  differences: readonly NodeDifference[],
): string | undefined {
  if (kind === 'cpu-instructions') {
    const exact = instructionTarget(text, differences);
    if (exact) return exact.field;
  }
  for (const matches of TARGETS[kind]) {
    const hit = differences.find(matches);
    if (hit) return hit.field;
  }
  return undefined;
}

function lineClue(text: string): { kind: ClueKind; line: string; meaning: string } | undefined {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const pattern = PATTERNS.find((p) => p.test(line));
    if (pattern) return { kind: pattern.kind, line: clip(line, 240), meaning: pattern.meaning };
  }
  return undefined;
}

/**
 * The first clue in the reports given (callers order them: the failing container
 * on a crashing node first); the termination message is read before the log tail.
 */
export function findCrashClue(
  reports: readonly ContainerReport[],
  differences: readonly NodeDifference[] = [],
): CrashClue | undefined {
  for (const report of reports) {
    const sources: [CrashClue['source'], string | undefined][] = [
      ['termination-message', report.lastTermination?.message],
      ['log', report.logTail],
    ];
    for (const [source, text] of sources) {
      if (!text) continue;
      const found = lineClue(text);
      if (!found) continue;
      const pointsAt = clueTarget(found.kind, found.line, differences);
      return {
        kind: found.kind,
        text: found.line,
        source,
        pod: report.pod,
        container: report.container,
        ...(pointsAt ? { pointsAt } : {}),
        meaning: found.meaning,
      };
    }
  }
  return undefined;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
