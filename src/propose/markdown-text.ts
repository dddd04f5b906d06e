/**
 * Untrusted text (a finding's summary, a proof, a chat name) as literal GitHub Markdown
 * text on one line: no HTML, no emphasis, code or link of its own making, no @mention,
 * and no autolink (GitHub links a bare `https://…`, `www.…` or e-mail address by itself).
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]#|!~])/g, '\\$1')
    .replace(/@/g, '@\u200b')
    .replace(/:\/\//g, ':\u200b//')
    .replace(/\b(www)\./gi, '$1\u200b.');
}
