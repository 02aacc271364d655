import { ConfigError } from './config-error';
import { BASEROW_NAMES, BaserowName, Env, isSet } from './baserow-names.table';

export { BASEROW_NAMES } from './baserow-names.table';
export type { BaserowName } from './baserow-names.table';

/**
 * Baserow's environment variables, read as Rowspace's (the table is baserow-names.table.ts).
 * `env` is the environment loadConfig reads: the input, plus the Rowspace variables Baserow's
 * names set, minus the Baserow names that have no effect. `unused` lists the set variables that
 * have no effect here, each with why (logged once at start-up).
 */
export interface BaserowReading {
  env: Env;
  unused: Unused[];
  /** Rowspace variable → the Baserow variable(s) its value came from (to name them in errors). */
  origins: Map<string, string>;
}

/** A set variable without effect: a name Rowspace does not support, or one another variable overrides. */
export interface Unused {
  name: string;
  why: string;
  /** A name the table says Rowspace does not read (the warning drops it if loadConfig read it after all). */
  unsupported: boolean;
}

/** Values compared in Rowspace's form, so `https://x/` and `https://X` or `yes` and `true` agree. */
function normalized(kind: BaserowName['kind'], value: string): string {
  const raw = value.trim();
  if (kind === 'url') {
    try {
      return new URL(raw).href.replace(/\/+$/, '');
    } catch {
      return raw;
    }
  }
  if (kind === 'bool') {
    const lower = raw.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(lower)) return 'true';
    if (['0', 'false', 'no', 'off'].includes(lower)) return 'false';
    return raw;
  }
  if (kind === 'int') return /^\d+$/.test(raw) ? String(Number(raw)) : raw;
  return raw;
}

export function readBaserowNames(env: Env): BaserowReading {
  const unused: Unused[] = [];
  /** Rowspace variable → candidate values, each with the variable(s) it came from. */
  const candidates = new Map<string, { from: string; value: string; kind: BaserowName['kind'] }[]>();
  const inert = new Set<string>();
  const built = new Set<BaserowName['build']>();
  for (const row of BASEROW_NAMES) {
    for (const name of matchingNames(row, env)) {
      if (row.setting === null) {
        if (!row.harmless?.(env[name]!.trim())) unused.push({ name, why: row.note, unsupported: true });
        continue;
      }
      const reason = row.inertWhen?.(env);
      if (reason) {
        unused.push({ name, why: reason, unsupported: false });
        inert.add(name);
        continue;
      }
      if (row.setting === name) continue;
      if (row.build) {
        if (built.has(row.build)) continue;
        built.add(row.build);
        const value = row.build.value(env);
        if (value !== undefined) add(row.setting, row.build.sources(env).join(', '), value, row.kind);
        continue;
      }
      const value = row.convert ? row.convert(env[name]!, name, env) : env[name]!.trim();
      if (value !== undefined) add(row.setting, name, value, row.kind);
    }
  }
  const out: Env = { ...env };
  for (const name of inert) delete out[name];
  const origins = new Map<string, string>();
  for (const [setting, values] of candidates) {
    const own = isSet(env, setting) ? [{ from: setting, value: env[setting]!, kind: values[0].kind }] : [];
    const all = [...own, ...values];
    const first = all[0];
    const other = all.find((c) => normalized(c.kind, c.value) !== normalized(first.kind, first.value));
    if (other) {
      throw new ConfigError(`${first.from} and ${other.from} are both set, to different values; set only one of them (they are the same setting here).`);
    }
    if (!own.length) {
      out[setting] = first.value;
      origins.set(setting, values.map((v) => v.from).join(', '));
    }
  }
  smtpSwitch(env, out, origins);
  return { env: out, unused, origins };

  function add(setting: string, from: string, value: string, kind: BaserowName['kind']): void {
    candidates.set(setting, [...(candidates.get(setting) ?? []), { from, value, kind }]);
  }
}

/** The set variables a row names: its name, or every name its pattern matches. */
function matchingNames(row: BaserowName, env: Env): string[] {
  if (!row.pattern) return isSet(env, row.name) ? [row.name] : [];
  return Object.keys(env).filter((key) => row.pattern!.test(key) && isSet(env, key));
}

/**
 * EMAIL_SMTP switches Baserow from logging mails to SMTP, at EMAIL_SMTP_HOST:EMAIL_SMTP_PORT
 * (localhost:25 by default). Switched off explicitly while Rowspace's SMTP_HOST is set, the two disagree.
 */
function smtpSwitch(env: Env, out: Env, origins: Map<string, string>): void {
  if (!isSet(env, 'EMAIL_SMTP')) return;
  if (!smtpOn(env)) {
    if (isSet(env, 'SMTP_HOST')) throw new ConfigError('EMAIL_SMTP and SMTP_HOST are both set, to different values: EMAIL_SMTP is off, SMTP_HOST sends mails through SMTP; set only one of them.');
    return;
  }
  if (out.SMTP_SECURE === 'true' && out.SMTP_REQUIRE_TLS === 'true') {
    throw new ConfigError('EMAIL_SMTP_USE_SSL and EMAIL_SMTP_USE_TLS are mutually exclusive: set only one of them.');
  }
  if (!isSet(out, 'SMTP_HOST')) {
    out.SMTP_HOST = 'localhost';
    origins.set('SMTP_HOST', 'EMAIL_SMTP');
  }
  if (!isSet(out, 'SMTP_PORT')) {
    out.SMTP_PORT = '25';
    origins.set('SMTP_PORT', 'EMAIL_SMTP');
  }
}

/** Baserow sends through SMTP when EMAIL_SMTP is any non-empty value; here `false`, `0`, `no` and `off` mean off. */
export function smtpOn(env: Env): boolean {
  return isSet(env, 'EMAIL_SMTP') && !['0', 'false', 'no', 'off'].includes(env.EMAIL_SMTP!.trim().toLowerCase());
}

/**
 * Set variables that look like Baserow's (BASEROW_*, CELERY_*) but are in neither the table nor
 * read by loadConfig (`read`): an unknown or misspelt name, listed in the warning too.
 */
export function unknownBaserowNames(env: Env, read: Set<string>): Unused[] {
  const known = (key: string) => BASEROW_NAMES.some((row) => (row.pattern ? row.pattern.test(key) : row.name === key));
  return Object.keys(env)
    .filter((key) => /^(BASEROW_|CELERY_)/.test(key) && isSet(env, key) && !read.has(key) && !known(key))
    .sort()
    .map((name) => ({ name, why: 'not a setting Rowspace knows', unsupported: true }));
}

/** The one start-up warning naming every set variable that has no effect here; null when there is none. */
export function unusedSettingsWarning(unused: string[]): string | null {
  if (!unused.length) return null;
  return `These environment variables have no effect in Rowspace: ${unused.join('; ')}.`;
}

/** The README's table of Baserow's names (test/config.spec.ts checks that the README holds it). */
export function baserowNamesMarkdown(): string {
  const setting = (row: BaserowName) => (row.setting === null ? 'no effect' : row.setting === row.name ? 'same name' : `\`${row.setting}\``);
  // Names without effect for one reason share a line.
  const groups: BaserowName[][] = [];
  for (const row of BASEROW_NAMES) {
    const last = groups.at(-1);
    if (last && row.setting === null && last[0].setting === null && last[0].note === row.note) last.push(row);
    else groups.push([row]);
  }
  const rows = groups.map((group) => `| ${group.map((row) => `\`${row.name}\``).join(', ')} | ${setting(group[0])} | ${group[0].note} |`);
  return ['| Baserow variable | Rowspace setting | here |', '|---|---|---|', ...rows].join('\n');
}
