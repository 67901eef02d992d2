/**
 * Signs in to the dashboard over HTTP the way a browser does (next-auth's credentials flow: CSRF
 * token, then POST /api/auth/callback/credentials), for scripts that fetch dashboard pages
 * (bench:dashboard, test:multi-instance).
 */

/** Adds the response's Set-Cookie pairs to `jar`; returns the jar as a Cookie header. */
function takeCookies(r: Response, jar: Map<string, string>): string {
  for (const line of r.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/**
 * Signs in at `base` (e.g. "http://127.0.0.1:3000") with an e-mail and password.
 * @returns the Cookie header of the session, its cookies as name/value pairs (for a browser
 *   context) and the sign-in answer's HTTP status. Does not check
 *   the session: callers read `/api/auth/session` wherever they need it (another instance, say).
 */
export async function signInWithPassword(
  base: string,
  email: string,
  password: string,
): Promise<{ cookie: string; cookies: [string, string][]; status: number }> {
  const jar = new Map<string, string>();
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: takeCookies(csrf, jar) },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const cookie = takeCookies(signIn, jar);
  return { cookie, cookies: [...jar], status: signIn.status };
}
