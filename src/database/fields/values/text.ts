import type { FieldError } from '../../../core/errors/api-error';
import { unsafeCharacterErrors } from '../../../core/validation/field';
import { NULL_NOT_ALLOWED, ParseResult, parsed, pythonLen, pythonStr, pythonStrip } from './common';

/**
 * Text-like cells. Baserow's serializer fields for text, long_text, url, email and
 * phone_number are DRF `CharField`s, so all of them: accept strings and numbers (`5` → "5"),
 * reject booleans/lists/objects ("Not a valid string."), **strip surrounding whitespace**,
 * treat ""/blank as "" without running validators, and run every validator, collecting all
 * errors, in this order: the type's regex ("Enter a valid value."), max_length, NUL
 * characters, lone surrogates. url/email/phone store "" for null.
 */

/** `URLFieldType.regex`: anything without whitespace with a "." or "//" after at most 255 chars. */
export const URL_REGEX = /^[^\s]{0,255}(?:\.|\/\/)[^\s]{1,}$/u;

// Python `regex`'s Unicode \w.
const W = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
const EMAIL_PART = `[-.\\[\\]!#$&*+/=?^_\`{|}~${W}]+`;
/** `EmailFieldType.regex`: highly permissive `local@domain` of 3..254 characters. */
export const EMAIL_REGEX = new RegExp(`^(?=[^\\n]{3,254}$)${EMAIL_PART}@${EMAIL_PART}$`, 'u');
export const EMAIL_MAX_LENGTH = 254;

/** `PhoneNumberFieldType.PHONE_NUMBER_REGEX`. */
export const PHONE_NUMBER_REGEX = /^[0-9NnXx,+._*()#=;/ -]{1,100}$/;
export const PHONE_NUMBER_MAX_LENGTH = 100;

/** Django's RegexValidator / Baserow's UnicodeRegexValidator default message. */
const INVALID_VALUE: FieldError = { error: 'Enter a valid value.', code: 'invalid' };

export interface CharFieldOptions {
  /** null → null (text) or a replacement (url/email/phone store ""); absent → null rejected. */
  allowNull?: boolean;
  nullAs?: string | null;
  maxLength?: number;
  /** Regex validators, run first. */
  patterns?: RegExp[];
}

/** The validators of a CharField, on the stripped value, all errors collected. */
function charFieldErrors(s: string, opts: CharFieldOptions): FieldError[] {
  const errors: FieldError[] = [];
  for (const re of opts.patterns ?? []) if (!re.test(s)) errors.push(INVALID_VALUE);
  if (opts.maxLength !== undefined && pythonLen(s) > opts.maxLength) {
    errors.push({ error: `Ensure this field has no more than ${opts.maxLength} characters.`, code: 'max_length' });
  }
  errors.push(...unsafeCharacterErrors(s));
  return errors;
}

/** A DRF `CharField(allow_blank=True, trim_whitespace=True)` run on a request value. */
export function parseCharField(value: unknown, opts: CharFieldOptions = {}): ParseResult<string | null> {
  if (value === null || value === undefined) {
    return opts.allowNull === false ? { ok: false, errors: [NULL_NOT_ALLOWED] } : parsed(opts.nullAs ?? null);
  }
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
    return { ok: false, errors: [{ error: 'Not a valid string.', code: 'invalid' }] };
  }
  const s = pythonStrip(pythonStr(value));
  if (s === '') return parsed('');
  const errors = charFieldErrors(s, opts);
  return errors.length ? { ok: false, errors } : parsed(s);
}

/** text / long_text: null stays null; "" stays "". */
export function parseText(value: unknown): ParseResult<string | null> {
  return parseCharField(value);
}

export function parseUrl(value: unknown): ParseResult<string> {
  return parseCharField(value, { nullAs: '', patterns: [URL_REGEX] }) as ParseResult<string>;
}

export function parseEmail(value: unknown): ParseResult<string> {
  return parseCharField(value, { nullAs: '', patterns: [EMAIL_REGEX], maxLength: EMAIL_MAX_LENGTH }) as ParseResult<string>;
}

export function parsePhoneNumber(value: unknown): ParseResult<string> {
  return parseCharField(value, {
    nullAs: '',
    patterns: [PHONE_NUMBER_REGEX],
    maxLength: PHONE_NUMBER_MAX_LENGTH,
  }) as ParseResult<string>;
}

/** Errors for an already-stripped, non-empty url (e.g. text converted to url keeps only valid ones). */
export function validateUrl(s: string): FieldError[] {
  return charFieldErrors(s, { patterns: [URL_REGEX] });
}

export function validateEmail(s: string): FieldError[] {
  return charFieldErrors(s, { patterns: [EMAIL_REGEX], maxLength: EMAIL_MAX_LENGTH });
}

export function validatePhoneNumber(s: string): FieldError[] {
  return charFieldErrors(s, { patterns: [PHONE_NUMBER_REGEX], maxLength: PHONE_NUMBER_MAX_LENGTH });
}
