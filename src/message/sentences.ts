/**
 * The engine's English sentences in the reader's language (i18n/sentences.ts), with
 * every area's sentences loaded: a process that renders a diagnosis it did not make
 * (the chat app renders the worker's) has them too.
 */
import '../diagnosis/sentences.js';
import '../diagnosis/finding-sentences.js';
import '../diagnosis/wait-sentences.js';
import '../diagnosis/report-sentences.js';
import '../remediation/sentences.js';
import '../remediation/plan-sentences.js';

export { sentenceIn } from '../i18n/sentences.js';
