import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { LicensesController } from './licenses.controller';
import { LicensesService } from './licenses.service';

/**
 * Baserow's licences as its web client reads them: `active_licenses` in the user data and the
 * admin list at `/api/licenses/`. Nothing is registered or checked: the served types are built in.
 */
@Module({
  imports: [UsersModule],
  controllers: [LicensesController],
  providers: [LicensesService],
  exports: [LicensesService],
})
export class LicensesModule {}
