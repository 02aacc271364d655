import { Module } from '@nestjs/common';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { TokenAuthenticator } from './token-authenticator';
import { TokenKeyCipher } from './token-keys';
import { TokenRepository } from './token.repository';
import { TokensController } from './tokens.controller';
import { TokensService } from './tokens.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { DatabaseTokenEntity, DatabaseTokenPermissionEntity } from './token.entity';

/** Database tokens (`/api/database/tokens/`) and the `Token` authentication strategy the auth guard uses. */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [DatabaseTokenEntity, DatabaseTokenPermissionEntity] }), WorkspacesModule],
  controllers: [TokensController],
  providers: [TokenRepository, TokensService, TokenAuthenticator, TokenKeyCipher],
  exports: [TokenAuthenticator, TokensService, TokenKeyCipher],
})
export class TokensModule {}
