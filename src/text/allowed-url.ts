/**
 * A URL shown as a link only when it points at a host the operator listed
 * (ROLLOUT_DOCTOR_ALERT_LINK_HOSTS): http(s), no credentials, the host with its port
 * unless it is the scheme's default, as the list names hosts, and nothing a chat's link
 * syntax could end early (`<`, `>`, `|`, white space). An alert's externalURL comes with
 * the notification, so anyone holding the webhook token chooses it. The href to link,
 * or null: then it is shown as text.
 */
export function allowedUrl(url: string, hosts: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  if (!hosts.includes(parsed.host.toLowerCase())) return null;
  const href = parsed.href;
  if (/[<>|\s]/.test(href)) return null;
  return href;
}
