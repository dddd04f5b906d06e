/**
 * Reads one diagnosis may take (log tails aside): the workload, its revisions, pods,
 * events, quotas, disruption budgets and autoscalers, the eligible nodes and their pods,
 * and one more (the DeviceClasses of a GPU template, a pod's node read by name). 8 before
 * the collector read the namespace's PodDisruptionBudgets and HorizontalPodAutoscalers.
 */
export const MAX_DIAGNOSE_READS = 10;
