import { DynamicModule, ForwardReference, Module, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';

/**
 * What modules keep in the metadata database: TypeORM entities and, for those that have their
 * own, migrations; and the SQL functions they add to every SQLite connection, as the files that
 * export them (see sqlite-functions.ts: the read workers load them by path).
 */
export interface OwnedSchema {
  entities: Function[];
  migrations: Function[];
  sqliteFunctions: string[];
}

type ModuleImport = Type<unknown> | DynamicModule | Promise<DynamicModule> | ForwardReference;

const declared = new WeakMap<object, Partial<OwnedSchema>>();

/**
 * A module declares what it owns in its `imports`, as Nest modules declare TypeORM's `forFeature`:
 * `imports: [OwnedSchemaModule.forFeature({ entities: [UserEntity] })]`. Nothing is registered
 * globally: the app collects the declarations of the modules it is built from
 * (`collectOwnedSchema`), so the data source of the app and of the migrations CLI hold exactly
 * those of the modules loaded, extension modules included. The module itself provides nothing.
 */
@Module({})
export class OwnedSchemaModule {
  static forFeature(schema: Partial<OwnedSchema>): DynamicModule {
    const declaration: DynamicModule = { module: OwnedSchemaModule };
    declared.set(declaration, schema);
    return declaration;
  }
}

/** The entities, migrations and SQLite functions declared anywhere in these modules' import graphs (TypeORM runs migrations in timestamp order). */
export function collectOwnedSchema(modules: readonly ModuleImport[]): OwnedSchema {
  const entities = new Set<Function>();
  const migrations = new Set<Function>();
  const sqliteFunctions = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (item: ModuleImport | undefined): void => {
    if (!item || item instanceof Promise || seen.has(item)) return;
    seen.add(item);
    if ('forwardRef' in item) return visit(item.forwardRef() as ModuleImport);
    declared.get(item)?.entities?.forEach((entity) => entities.add(entity));
    declared.get(item)?.migrations?.forEach((migration) => migrations.add(migration));
    declared.get(item)?.sqliteFunctions?.forEach((file) => sqliteFunctions.add(file));
    const imports =
      typeof item === 'function'
        ? ((Reflect.getMetadata(MODULE_METADATA.IMPORTS, item) as ModuleImport[] | undefined) ?? [])
        : [item.module, ...(item.imports ?? [])];
    imports.forEach(visit);
  };
  modules.forEach(visit);
  return { entities: [...entities], migrations: [...migrations], sqliteFunctions: [...sqliteFunctions] };
}
