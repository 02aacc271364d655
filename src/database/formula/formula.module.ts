import { Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DatabaseModule } from '../database.module';
import type { FieldEntity } from '../fields/field.entity';
import { FieldsService } from '../fields/fields.service';
import { FieldTypeRegistry } from '../fields/field-type';
import { RowsService } from '../rows/rows.service';
import { FieldDependencyRepository } from './field-dependency.repository';
import { FormulaClockService } from './formula-clock.service';
import { FormulaController } from './formula.controller';
import { FormulaService } from './formula.service';
import { FORMULA_FUNCTIONS } from './functions';
import { FormulaFunctionRegistry } from './functions/function';
import { COMPUTED_TYPES } from './stored-type';
import { CountFieldType } from './types/count.field-type';
import { FormulaFieldType } from './types/formula.field-type';
import { LookupFieldType } from './types/lookup.field-type';
import { RollupFieldType } from './types/rollup.field-type';
import { OwnedSchemaModule } from '../../core/database/owned-schema';
import { FieldDependencyEntity } from './field-dependency.entity';

const COMPUTED_FIELD_TYPES = [FormulaFieldType, LookupFieldType, RollupFieldType, CountFieldType];

/**
 * Computed fields: Baserow's formula language (parser, functions, type checker, SQL
 * compiler), the formula, lookup, rollup and count field types, and the dependency graph
 * that keeps their stored cells right as rows and fields change.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [FieldDependencyEntity] }), DatabaseModule],
  controllers: [FormulaController],
  providers: [FormulaService, FormulaClockService, FieldDependencyRepository, FormulaFunctionRegistry, ...COMPUTED_FIELD_TYPES],
  exports: [FormulaService, FormulaFunctionRegistry, FormulaClockService],
})
export class FormulaModule implements OnModuleInit {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly functions: FormulaFunctionRegistry,
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly formulas: FormulaService,
    private readonly fields: FieldsService,
    private readonly rows: RowsService,
  ) {}

  onModuleInit(): void {
    for (const fn of FORMULA_FUNCTIONS) this.functions.register(fn);
    for (const type of COMPUTED_FIELD_TYPES) this.fieldTypes.register(this.moduleRef.get(type));
    this.rows.useCascade(this.formulas);
    this.fields.onFieldsChanged(async ({ databaseId, fields, kind }) => {
      const retyped: FieldEntity[] = [];
      // A computed field back from the trash computes again what it missed meanwhile.
      const restored = kind === 'restored' ? fields.filter(({ field }) => COMPUTED_TYPES.has(field.type)) : [];
      if (restored.length) {
        const all = await this.formulas.databaseFields(databaseId);
        for (const { field } of restored) {
          const copy = structuredClone(field);
          if (await this.formulas.refresh(copy, all)) retyped.push(copy);
        }
      }
      const changed = await this.formulas.fieldsChanged(
        databaseId,
        fields.map(({ field, previous }) => ({ field, previousName: previous?.name })),
      );
      return { related: changed.related, retyped: [...retyped, ...changed.retyped] };
    });
  }
}
