/**
 * Credentials never leave the process that was given them: every URL printed, logged or stored goes
 * through `redactUrl`, and every message through `redactor(url)`, which also catches the password when
 * a library quotes it in an error.
 */

/** The URL with its user name kept and its password replaced by `***` (unparseable input: a fixed placeholder). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable Redis URL>';
  }
}

/** A function that removes the URL's password (raw and URL-decoded) and the raw URL from any text. */
export function redactor(url: string | undefined): (text: string) => string {
  if (!url) return (t) => t;
  const secrets = new Set<string>();
  try {
    const u = new URL(url);
    if (u.password) {
      secrets.add(u.password);
      try {
        secrets.add(decodeURIComponent(u.password));
      } catch {
        /* a malformed %-escape: the raw form is removed anyway */
      }
    }
  } catch {
    /* unparseable: only the whole URL is removed */
  }
  const safe = redactUrl(url);
  const list = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  return (text: string) => {
    let t = text.split(url).join(safe);
    for (const s of list) t = t.split(s).join('***');
    return t;
  };
}
