import { Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { JobsModule } from '../../jobs/jobs.module';
import { ViewsModule } from '../../views/views.module';
import { PublicViewsModule } from '../../views/public/public-views.module';
import { PublicExportJobIds } from './public-export-job-ids';
import { DatabaseModule } from '../database.module';
import { ExportController, PublicViewExportController } from './export.controller';
import { ExportService } from './export.service';
import { CsvTableExporter } from './exporters/csv.exporter';
import { ExcelTableExporter } from './exporters/excel.exporter';
import { JsonTableExporter } from './exporters/json.exporter';
import { XmlTableExporter } from './exporters/xml.exporter';
import { TableExporterRegistry } from './table-exporter';

const EXPORTERS = [CsvTableExporter, JsonTableExporter, XmlTableExporter, ExcelTableExporter];

/** Table and view exports to files (Baserow's table exporter registry), as jobs. */
@Module({
  imports: [DatabaseModule, ViewsModule, PublicViewsModule, JobsModule],
  controllers: [ExportController, PublicViewExportController],
  providers: [TableExporterRegistry, ExportService, PublicExportJobIds, ...EXPORTERS],
  exports: [TableExporterRegistry],
})
export class ExportModule implements OnModuleInit {
  constructor(
    private readonly registry: TableExporterRegistry,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    for (const exporter of EXPORTERS) this.registry.register(this.moduleRef.get(exporter));
  }
}
