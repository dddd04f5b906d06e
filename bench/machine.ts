/** What the benchmark ran on, captured at the start of `npm run bench`. */
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';

export interface MachineInfo {
  command: string;
  cores: number;
  cpuModel: string;
  memoryGb: number;
  os: string;
  node: string;
  loadAverage: number[];
  date: string;
}

/** Reads cores, Node version and load average now. */
export function machineInfo(command: string): MachineInfo {
  const list = cpus();
  return {
    command,
    cores: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    os: `${osType()} ${release()}`,
    node: process.version,
    loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
    date: new Date().toISOString(),
  };
}
