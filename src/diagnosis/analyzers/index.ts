import type { Analyzer } from '../analyzer.js';

/**
 * Every analyzer, in reporting order (the most decisive verdicts first). One module
 * per analyzer in this folder; add new ones here.
 */
export const analyzers: readonly Analyzer[] = [];
