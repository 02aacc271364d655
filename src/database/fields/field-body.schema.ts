import { specsSchema, SchemaObject } from '../../openapi/schemas';
import { FieldTypeRegistry } from './field-type';
import { COMMON_SPECS } from './fields.service';

/**
 * The field create/update body: one schema per registered type (its properties and the
 * common keys), so a type a module registers is documented too. On create `type` tells which
 * one applies (`oneOf`); an update may omit it, so any may (`anyOf`).
 */
export function fieldBodySchema(registry: FieldTypeRegistry, options: { partial: boolean }): SchemaObject {
  const variants = registry.names().map((name) => {
    const type = registry.get(name)!;
    const schema = specsSchema({ ...COMMON_SPECS, ...type.properties }, options);
    const writeOnly = specsSchema(type.writeOnlyProperties ?? {}, { partial: true });
    schema.title = name;
    schema.properties = { ...schema.properties, ...writeOnly.properties, type: { type: 'string', enum: [name] } };
    if (!options.partial) schema.required = [...(schema.required ?? []), 'type'];
    return schema;
  });
  return options.partial ? { anyOf: variants } : { oneOf: variants };
}
