/** The API keys providers were configured with in this process (see `redactSecrets`). */
const secrets = new Set<string>();

/** Shorter values (a placeholder such as `not-needed`, an empty key) are not secrets worth hiding. */
const minimumSecretLength = 8;

/** The text a configured secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Remembers a configured API key, so that `redactSecrets` hides it wherever an error message
 * quotes it (a provider's 401 body that echoes the key). Providers call it when they resolve a key.
 */
export function registerSecret(value: unknown): void {
  if (typeof value === 'string' && value.trim().length >= minimumSecretLength) secrets.add(value.trim());
}

/**
 * `text` with every registered API key replaced by `[redacted]`: error messages reach traces,
 * reports and logs, which often leave the machine, and must never carry a key.
 */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const secret of secrets) {
    if (redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
  }
  return redacted;
}
