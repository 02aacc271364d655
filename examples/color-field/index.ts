import { Module, OnModuleInit } from '@nestjs/common';
import { DatabaseModule, FieldTypeRegistry, FilterTypeRegistry } from 'rowspace/extension';
import { ColorFieldType } from './color.field-type';
import { ColorIsDarkFilter, ColorIsLightFilter } from './color.filters';

/**
 * An example extension: the `color` field type and the `color_is_dark` / `color_is_light`
 * filters. Enabled with `EXTRA_MODULES=./examples/color-field`; see README.md here.
 */
@Module({
  imports: [DatabaseModule],
  providers: [ColorFieldType, ColorIsDarkFilter, ColorIsLightFilter],
})
export class ColorFieldModule implements OnModuleInit {
  constructor(
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly filterTypes: FilterTypeRegistry,
    private readonly color: ColorFieldType,
    private readonly isDark: ColorIsDarkFilter,
    private readonly isLight: ColorIsLightFilter,
  ) {}

  onModuleInit(): void {
    this.fieldTypes.register(this.color);
    this.filterTypes.register(this.isDark);
    this.filterTypes.register(this.isLight);
  }
}

/** What EXTRA_MODULES loads. */
export { ColorFieldModule as RowspaceExtension };
