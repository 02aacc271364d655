import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { registerDecorator, ValidationArguments } from 'class-validator';
import { ErrorTree, FieldError, validationError } from '../errors/api-error';
import { INT32_MAX, NO_ID } from './ids';

/**
 * One declaration per request field: how it is validated (Baserow/DRF rules, messages and
 * codes), how it is coerced, and how it is documented in the OpenAPI schema.
 */
export type FieldSpec = CommonSpec &
  (
    | { kind: 'string'; min?: number; max?: number; allowBlank?: boolean }
    | { kind: 'email'; max?: number }
    | { kind: 'password' }
    /**
     * With `fallback`, a present value that is not an integer or is below `min` becomes the
     * fallback (null: as if absent) and one above `max` becomes `max`, as DRF's paginators ignore bad page values.
     */
    | { kind: 'int'; min?: number; max?: number; fallback?: number | null }
    /** A row/table/view id as DRF's `IntegerField` reads it; one beyond 32 bits names nothing (`NO_ID`). */
    | { kind: 'id' }
    | { kind: 'bool' }
    /** Baserow's boolean query flags (`user_field_names`): present and empty, or y/yes/t/true/on/1, means true. */
    | { kind: 'flag' }
    | { kind: 'choice'; choices: readonly string[] }
    | { kind: 'list'; of: FieldSpec; allowEmpty?: boolean; minItems?: number; maxItems?: number }
    | { kind: 'object' }
    /** Any JSON value, checked by the service (e.g. imported table data cells). */
    | { kind: 'any' }
  );

interface CommonSpec {
  /** Required unless false; a missing optional field takes `default` (or stays absent). */
  required?: boolean;
  nullable?: boolean;
  default?: unknown;
  description?: string;
  example?: unknown;
  /** Extra rule run on the coerced value. */
  check?: (value: any) => FieldError | null;
}

export type FieldResult = { value: unknown } | { error: FieldError[] | ErrorTree };

/** Lists of a request are bounded (each item may become a bound SQL value; SQLite takes 32,766 per statement). */
export const LIST_MAX_ITEMS = 10_000;
const err = (error: string, code: string): { error: FieldError[] } => ({ error: [{ error, code }] });
/** Python's type name of a JSON value, as DRF's messages show it (`str`, `int`, `dict`, `NoneType`…). */
export const pythonTypeName = (value: unknown): string =>
  value === null ? 'NoneType' : Array.isArray(value) ? 'list' : typeof value === 'object' ? 'dict' : typeof value === 'string' ? 'str' : typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'float') : typeof value === 'boolean' ? 'bool' : typeof value;

const TRUE_VALUES = new Set<unknown>([true, 1, '1', 'true', 'True', 'TRUE', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'y', 'Y', 't', 'T']);
const FALSE_VALUES = new Set<unknown>([false, 0, '0', 'false', 'False', 'FALSE', 'no', 'No', 'NO', 'off', 'Off', 'OFF', 'n', 'N', 'f', 'F']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The validators every DRF `CharField` runs after its own: `ProhibitNullCharactersValidator`
 * (PostgreSQL cannot store NUL in text) and `ProhibitSurrogateCharactersValidator` (a lone
 * surrogate has no UTF-8 form). Both errors, in DRF's order, or none.
 */
export function unsafeCharacterErrors(text: string): FieldError[] {
  const errors: FieldError[] = [];
  if (text.includes('\0')) errors.push({ error: 'Null characters are not allowed.', code: 'null_characters_not_allowed' });
  const surrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  if (surrogate) {
    const hex = surrogate[0].charCodeAt(0).toString(16).toUpperCase();
    errors.push({ error: `Surrogate characters are not allowed: U+${hex}.`, code: 'surrogate_characters_not_allowed' });
  }
  return errors;
}

/**
 * Why a request body is not a JSON object, as a DRF serializer words it (`null` is
 * "No data provided"), or null when it is one. A missing body counts as `{}`.
 */
export function bodyObjectError(value: unknown): ErrorTree | null {
  if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))) return null;
  if (value === null) return { non_field_errors: [{ error: 'No data provided', code: 'null' }] };
  return { non_field_errors: [{ error: `Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`, code: 'invalid' }] };
}

/** An integer as DRF's `IntegerField` reads it (`int`, `"12"`, `" 12 "`, `"12.0"`), or null. */
function integer(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value !== 'string' || !/^\s*[-+]?\d+(\.0*)?\s*$/.test(value)) return null;
  // Digits beyond a double's range are still an integer (DRF's are unbounded): ±Infinity compares as beyond every bound.
  return Number(value.trim());
}

/** `true` for user_field_names-style flags: present and empty, or y/yes/t/true/on/1 (any case). */
export function queryFlag(value: unknown): boolean {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  return ['', 'y', 'yes', 't', 'true', 'on', '1'].includes(String(value).toLowerCase());
}

/** Validates and coerces one present value the way DRF's field of the same kind does. */
export function checkValue(spec: FieldSpec, value: unknown): FieldResult {
  if (value === null) {
    return spec.nullable ? { value: null } : err('This field may not be null.', 'null');
  }
  const result = coerce(spec, value);
  if ('error' in result || !spec.check) return result;
  const extra = spec.check(result.value);
  return extra ? { error: [extra] } : result;
}

function coerce(spec: FieldSpec, value: unknown): FieldResult {
  switch (spec.kind) {
    case 'string':
    case 'email':
    case 'password': {
      if (typeof value === 'boolean' || !['string', 'number'].includes(typeof value)) return err('Not a valid string.', 'invalid');
      const text = spec.kind === 'password' ? String(value) : String(value).trim();
      if (text === '' && !(spec.kind === 'string' && spec.allowBlank)) return err('This field may not be blank.', 'blank');
      if (spec.kind === 'password') {
        if (text.length < 8) return err('This password is too short. It must contain at least 8 characters.', 'password_validation_failed');
        if (text.length > 256) return err('This password is too long. It must not exceed 256 characters.', 'password_validation_failed');
        const unsafe = unsafeCharacterErrors(text);
        return unsafe.length ? { error: unsafe } : { value: text };
      }
      const max = spec.max ?? (spec.kind === 'email' ? 254 : undefined);
      if (max !== undefined && text.length > max) return err(`Ensure this field has no more than ${max} characters.`, 'max_length');
      if (spec.kind === 'string' && spec.min !== undefined && text.length < spec.min) {
        return err(`Ensure this field has at least ${spec.min} characters.`, 'min_length');
      }
      const unsafe = unsafeCharacterErrors(text);
      if (unsafe.length) return { error: unsafe };
      if (spec.kind === 'email' && !EMAIL.test(text)) return err('Enter a valid email address.', 'invalid');
      return { value: text };
    }
    case 'int': {
      const number = integer(value);
      const max = spec.max ?? INT32_MAX;
      const min = spec.min ?? -INT32_MAX - 1;
      if (spec.fallback !== undefined) return { value: number === null || Number.isNaN(number) || number < min ? spec.fallback : Math.min(number, max) };
      if (number === null) return err('A valid integer is required.', 'invalid');
      if (number > max) return err(`Ensure this value is less than or equal to ${max}.`, 'max_value');
      if (number < min) return err(`Ensure this value is greater than or equal to ${min}.`, 'min_value');
      return { value: number };
    }
    case 'id': {
      const number = integer(value);
      if (number === null) return err('A valid integer is required.', 'invalid');
      return { value: number > INT32_MAX || number < -INT32_MAX - 1 ? NO_ID : number };
    }
    case 'flag':
      return { value: queryFlag(value) };
    case 'bool':
      if (TRUE_VALUES.has(value)) return { value: true };
      if (FALSE_VALUES.has(value)) return { value: false };
      return err('Must be a valid boolean.', 'invalid');
    case 'choice':
      if ((typeof value === 'string' || typeof value === 'number') && spec.choices.includes(String(value))) return { value: String(value) };
      return err(`"${typeof value === 'object' ? JSON.stringify(value) : String(value)}" is not a valid choice.`, 'invalid_choice');
    case 'list': {
      if (!Array.isArray(value)) return err(`Expected a list of items but got type "${pythonTypeName(value)}".`, 'not_a_list');
      if (value.length === 0 && spec.allowEmpty === false) return err('This list may not be empty.', 'empty');
      if (spec.minItems !== undefined && value.length < spec.minItems) {
        return err(`Ensure this field has at least ${spec.minItems} elements.`, 'min_length');
      }
      const maxItems = spec.maxItems ?? LIST_MAX_ITEMS;
      if (value.length > maxItems) return err(`Ensure this field has no more than ${maxItems} elements.`, 'max_length');
      const of = spec.of;
      if (of.kind === 'any' && !of.check) {
        // Any items (an import's cells, a million rows of them): kept as they are, only a null
        // checked, without an object per item (nor per list that passes).
        if (!of.nullable && value.includes(null)) {
          const nulls: ErrorTree = {};
          for (let index = 0; index < value.length; index++) if (value[index] === null) nulls[String(index)] = err('This field may not be null.', 'null').error;
          return { error: nulls };
        }
        return { value };
      }
      const tree: ErrorTree = {};
      let failed = false;
      // A list whose items are kept as they are is kept itself (an import's rows are not copied):
      // a new list is begun only at the first item that changes.
      let items: unknown[] | null = null;
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (passesAsIs(of, item)) {
          items?.push(item);
          continue;
        }
        const result = checkValue(of, item);
        if ('error' in result) {
          tree[String(index)] = result.error;
          failed = true;
          continue;
        }
        if (result.value !== item && !items) items = value.slice(0, index);
        items?.push(result.value);
      }
      if (failed) return { error: tree };
      return { value: items ?? value };
    }
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) return err(`Expected a dictionary of items but got type "${pythonTypeName(value)}".`, 'not_a_dict');
      return { value };
    case 'any':
      return { value };
  }
}

/**
 * Whether a value passes `spec` unchanged, decided without allocating: any value, or a list of
 * any values (the rows of an import, a million of them). False means "run checkValue".
 */
function passesAsIs(spec: FieldSpec, value: unknown): boolean {
  if (spec.check) return false;
  if (value === null) return spec.nullable === true;
  if (spec.kind === 'any') return true;
  if (spec.kind !== 'list' || !Array.isArray(value) || spec.of.kind !== 'any' || spec.of.check) return false;
  if (value.length === 0 && spec.allowEmpty === false) return false;
  if (spec.minItems !== undefined && value.length < spec.minItems) return false;
  if (value.length > (spec.maxItems ?? LIST_MAX_ITEMS)) return false;
  if (spec.of.nullable) return true;
  for (let index = 0; index < value.length; index++) if (value[index] === null) return false;
  return true;
}

/** Field specs of a DTO class, in declaration order. */
const SPECS = Symbol('rowspace:field-specs');

export function fieldSpecs(target: Function): Map<string, FieldSpec> | undefined {
  return (target as unknown as Record<symbol, Map<string, FieldSpec>>)[SPECS];
}

function swaggerOptions(spec: FieldSpec): ApiPropertyOptions {
  const base: Record<string, unknown> = {
    required: spec.required !== false,
    nullable: spec.nullable,
    description: spec.description,
    example: spec.example,
    default: spec.default,
  };
  switch (spec.kind) {
    case 'string':
      return { ...base, type: String, minLength: spec.min, maxLength: spec.max } as ApiPropertyOptions;
    case 'email':
      return { ...base, type: String, format: 'email', maxLength: spec.max ?? 254 } as ApiPropertyOptions;
    case 'password':
      return { ...base, type: String, format: 'password', minLength: 8, maxLength: 256 } as ApiPropertyOptions;
    case 'int':
      return { ...base, type: 'integer', minimum: spec.fallback === undefined ? spec.min : undefined, maximum: spec.fallback === undefined ? spec.max : undefined } as ApiPropertyOptions;
    case 'id':
      return { ...base, type: 'integer' } as ApiPropertyOptions;
    case 'flag':
      return { ...base, type: Boolean, description: spec.description ?? 'A flag: present (even empty) or `true` means true.' } as ApiPropertyOptions;
    case 'bool':
      return { ...base, type: Boolean } as ApiPropertyOptions;
    case 'choice':
      return { ...base, enum: [...spec.choices] } as ApiPropertyOptions;
    case 'list':
      return { ...base, type: 'array', items: specSchema(spec.of), minItems: spec.minItems, maxItems: spec.maxItems ?? LIST_MAX_ITEMS } as ApiPropertyOptions;
    case 'object':
      return { ...base, type: 'object', additionalProperties: true } as ApiPropertyOptions;
    case 'any':
      return { ...base } as ApiPropertyOptions;
  }
}

/** The JSON schema of a value a `FieldSpec` accepts (request bodies built at run time, e.g. field types). */
export function specSchema(spec: FieldSpec): SchemaObject {
  const schema = ((): SchemaObject => {
    switch (spec.kind) {
      case 'string':
        return { type: 'string', minLength: spec.min, maxLength: spec.max };
      case 'email':
        return { type: 'string', format: 'email', maxLength: spec.max ?? 254 };
      case 'password':
        return { type: 'string', format: 'password', minLength: 8, maxLength: 256 };
      case 'int':
        return { type: 'integer', minimum: spec.min, maximum: spec.max };
      case 'id':
        return { type: 'integer' };
      case 'bool':
      case 'flag':
        return { type: 'boolean' };
      case 'choice':
        return { type: 'string', enum: [...spec.choices] };
      case 'list':
        return { type: 'array', items: specSchema(spec.of), minItems: spec.minItems, maxItems: spec.maxItems ?? LIST_MAX_ITEMS };
      case 'object':
        return { type: 'object', additionalProperties: true };
      case 'any':
        return {};
    }
  })();
  if (spec.nullable) schema.nullable = true;
  if (spec.description) schema.description = spec.description;
  if (spec.default !== undefined) schema.default = spec.default;
  for (const key of Object.keys(schema) as (keyof SchemaObject)[]) if (schema[key] === undefined) delete schema[key];
  return schema;
}

/**
 * Declares a request field. The DTO's class-validator constraint runs `checkValue`, stores the
 * coerced value back on the instance, and reports Baserow's `[{error, code}]` leaf on failure.
 */
export function Field(spec: FieldSpec): PropertyDecorator {
  return (target: object, propertyKey: string | symbol) => {
    const key = String(propertyKey);
    const ctor = target.constructor as unknown as Record<symbol, Map<string, FieldSpec>>;
    const inherited = ctor[SPECS];
    const specs = new Map(Object.prototype.hasOwnProperty.call(ctor, SPECS) ? inherited : inherited ?? []);
    specs.set(key, spec);
    Object.defineProperty(ctor, SPECS, { value: specs, configurable: true, enumerable: false, writable: true });
    ApiProperty(swaggerOptions(spec))(target, key);
    registerDecorator({
      name: 'rowspaceField',
      target: target.constructor,
      propertyName: key,
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          const object = args.object as Record<string, unknown>;
          if (value === undefined) {
            if (spec.required === false) {
              if (spec.default !== undefined) object[key] = structuredClone(spec.default);
              return true;
            }
            return false;
          }
          const result = checkValue(spec, value);
          if ('value' in result) {
            object[key] = result.value;
            return true;
          }
          return false;
        },
        defaultMessage(args: ValidationArguments) {
          const result = args.value === undefined ? err('This field is required.', 'required') : checkValue(spec, args.value);
          return JSON.stringify('error' in result ? result.error : []);
        },
      },
    });
  };
}

/**
 * Validates a body against specs known only at run time (a field type's properties).
 * Missing keys take their default unless `partial`; unknown keys are ignored.
 */
export function checkObject(
  specs: Readonly<Record<string, FieldSpec>>,
  source: Record<string, unknown>,
  options: { partial?: boolean } = {},
): { values: Record<string, unknown>; errors: ErrorTree } {
  const values: Record<string, unknown> = {};
  const errors: ErrorTree = {};
  for (const [key, spec] of Object.entries(specs)) {
    if (!Object.prototype.hasOwnProperty.call(source, key) || source[key] === undefined) {
      if (options.partial) continue;
      if (spec.required === false) {
        if (spec.default !== undefined) values[key] = structuredClone(spec.default);
        continue;
      }
      errors[key] = err('This field is required.', 'required').error;
      continue;
    }
    const result = checkValue(spec, source[key]);
    if ('error' in result) errors[key] = result.error;
    else values[key] = result.value;
  }
  return { values, errors };
}

/**
 * The items of a list in a body (a batch's `items`, a team's `subjects`) each checked against the
 * specs, as the route taking one of them checks its body; the errors are reported under
 * `<key>.<index>`, as DRF nests them.
 */
export function checkItems<T>(specs: Readonly<Record<string, FieldSpec>>, items: Record<string, unknown>[], key: string): T[] {
  const tree: ErrorTree = {};
  const values = items.map((item, index) => {
    const { values: checked, errors } = checkObject(specs, item);
    if (Object.keys(errors).length) tree[String(index)] = errors;
    return checked as unknown as T;
  });
  if (Object.keys(tree).length) throw validationError({ [key]: tree });
  return values;
}
