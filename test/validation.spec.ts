import { validateSync } from 'class-validator';
import { ApiError } from '../src/core/errors/api-error';
import { checkValue, Field, fieldSpecs } from '../src/core/validation/field';
import { ApiValidationPipe } from '../src/core/validation/validation.pipe';

describe('request field validation (DRF rules, messages and codes)', () => {
  it('coerces like DRF fields do', () => {
    expect(checkValue({ kind: 'string' }, '  padded  ')).toEqual({ value: 'padded' });
    expect(checkValue({ kind: 'string' }, 12)).toEqual({ value: '12' });
    expect(checkValue({ kind: 'int' }, '42')).toEqual({ value: 42 });
    expect(checkValue({ kind: 'int' }, '3.0')).toEqual({ value: 3 });
    expect(checkValue({ kind: 'bool' }, 'true')).toEqual({ value: true });
    expect(checkValue({ kind: 'bool' }, 0)).toEqual({ value: false });
    expect(checkValue({ kind: 'email' }, ' A@B.co ')).toEqual({ value: 'A@B.co' });
  });

  it.each([
    [{ kind: 'string' as const }, null, 'This field may not be null.', 'null'],
    [{ kind: 'string' as const }, '', 'This field may not be blank.', 'blank'],
    [{ kind: 'string' as const }, true, 'Not a valid string.', 'invalid'],
    [{ kind: 'string' as const, max: 3 }, 'abcd', 'Ensure this field has no more than 3 characters.', 'max_length'],
    [{ kind: 'string' as const, min: 2 }, 'a', 'Ensure this field has at least 2 characters.', 'min_length'],
    [{ kind: 'int' as const }, 'x', 'A valid integer is required.', 'invalid'],
    [{ kind: 'int' as const }, 1.5, 'A valid integer is required.', 'invalid'],
    [{ kind: 'int' as const, min: 0 }, -1, 'Ensure this value is greater than or equal to 0.', 'min_value'],
    [{ kind: 'int' as const }, 2 ** 31, 'Ensure this value is less than or equal to 2147483647.', 'max_value'],
    [{ kind: 'bool' as const }, 'perhaps', 'Must be a valid boolean.', 'invalid'],
    [{ kind: 'choice' as const, choices: ['A'] }, 'B', '"B" is not a valid choice.', 'invalid_choice'],
    [{ kind: 'email' as const }, 'nope', 'Enter a valid email address.', 'invalid'],
    [{ kind: 'password' as const }, 'short', 'This password is too short. It must contain at least 8 characters.', 'password_validation_failed'],
    [{ kind: 'list' as const, of: { kind: 'int' as const } }, 'x', 'Expected a list of items but got type "str".', 'not_a_list'],
  ])('%p rejects %p', (spec, value, error, code) => {
    expect(checkValue(spec, value)).toEqual({ error: [{ error, code }] });
  });

  it('keys list item errors by their index as a string', () => {
    expect(checkValue({ kind: 'list', of: { kind: 'int' } }, [1, 'a', 2, null])).toEqual({
      error: {
        '1': [{ error: 'A valid integer is required.', code: 'invalid' }],
        '3': [{ error: 'This field may not be null.', code: 'null' }],
      },
    });
  });
});

describe('rows of any values (the fast path of imported data)', () => {
  const rows = { kind: 'list' as const, of: { kind: 'list' as const, of: { kind: 'any' as const } }, minItems: 1 };
  const nullableRows = { kind: 'list' as const, of: { kind: 'list' as const, of: { kind: 'any' as const, nullable: true } } };

  it('keeps the very list it was given when every row passes', () => {
    const data = [['a', 1, true, { x: 1 }, [2]], [], ['b']];
    const result = checkValue(rows, data);
    expect(result).toEqual({ value: data });
    expect((result as { value: unknown }).value).toBe(data);
    const withNulls = [['a', null], [null]];
    expect((checkValue(nullableRows, withNulls) as { value: unknown }).value).toBe(withNulls);
  });

  it('answers the same detail tree for each kind of bad row', () => {
    const long = Array.from({ length: 10_001 }, () => 'x');
    expect(checkValue(rows, [['a'], ['b', null, 'c', null], 'row', null, long, 7])).toEqual({
      error: {
        '1': { '1': [{ error: 'This field may not be null.', code: 'null' }], '3': [{ error: 'This field may not be null.', code: 'null' }] },
        '2': [{ error: 'Expected a list of items but got type "str".', code: 'not_a_list' }],
        '3': [{ error: 'This field may not be null.', code: 'null' }],
        '4': [{ error: 'Ensure this field has no more than 10000 elements.', code: 'max_length' }],
        '5': [{ error: 'Expected a list of items but got type "int".', code: 'not_a_list' }],
      },
    });
    expect(checkValue(nullableRows, [['a', null], {}])).toEqual({ error: { '1': [{ error: 'Expected a list of items but got type "dict".', code: 'not_a_list' }] } });
    expect(checkValue({ kind: 'list', of: { kind: 'list', of: { kind: 'any' }, allowEmpty: false } }, [['a'], []])).toEqual({
      error: { '1': [{ error: 'This list may not be empty.', code: 'empty' }] },
    });
    expect(checkValue({ kind: 'list', of: { kind: 'list', of: { kind: 'any' }, minItems: 2 } }, [['a', 'b'], ['a']])).toEqual({
      error: { '1': [{ error: 'Ensure this field has at least 2 elements.', code: 'min_length' }] },
    });
  });
});

describe('the validation pipe', () => {
  class Base {
    @Field({ kind: 'int', required: false, default: 7 })
    size?: number;

    @Field({ kind: 'string' })
    name!: string;
  }
  class Child extends Base {
    @Field({ kind: 'list', of: { kind: 'int' }, required: false, default: [1] })
    ids?: number[];

    @Field({ kind: 'bool', required: false })
    flag?: boolean;
  }
  const pipe = new ApiValidationPipe();
  /** What class-validator alone makes of the same input (the pipe's result before its shortcut). */
  const reference = (metatype: new () => object, value: Record<string, unknown>): Record<string, unknown> => {
    // The pipe copies the declared keys the client sent, in declaration order, onto the instance.
    const plain = Object.fromEntries([...fieldSpecs(metatype)!.keys()].filter((key) => key in value).map((key) => [key, value[key]]));
    const instance = Object.assign(Object.create(metatype.prototype as object) as Record<string, unknown>, plain);
    expect(validateSync(instance, { forbidUnknownValues: false })).toEqual([]);
    return instance;
  };

  it.each([
    [{ name: ' a ', size: '3' }],
    [{ name: 'b', flag: 'true', ids: ['4', 5] }],
    [{ flag: 'no', name: 'c', size: 1, ids: [] }],
  ])('gives a valid DTO as class-validator does: same values, keys in the same order (%p)', (value) => {
    const result = pipe.transform({ ...value }, { type: 'body', metatype: Child }) as Record<string, unknown>;
    const expected = reference(Child, { ...value });
    expect(Object.getPrototypeOf(result)).toBe(Child.prototype);
    expect(Object.entries(result)).toEqual(Object.entries(expected));
  });

  it('answers the error tree for an invalid DTO', () => {
    let thrown: unknown;
    try {
      pipe.transform({ size: 'x', ids: ['y'] }, { type: 'body', metatype: Child });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).detail).toEqual({
      size: [{ error: 'A valid integer is required.', code: 'invalid' }],
      name: [{ error: 'This field is required.', code: 'required' }],
      ids: { '0': [{ error: 'A valid integer is required.', code: 'invalid' }] },
    });
  });
});
