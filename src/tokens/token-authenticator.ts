import { Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import type { UserEntity } from '../users/user.entity';
import { TOKEN_KEY_LENGTH, hashTokenKey } from './token-keys';
import { TokenGrants } from './token-permissions';
import { TokenLookup, TokenRepository } from './token.repository';
import { TokenAuthenticationFailure } from './tokens.errors';

/** The database token a request was authenticated with. */
export interface AuthenticatedToken {
  id: number;
  workspaceId: number;
  user: UserEntity;
  grants: TokenGrants;
}

export const TOKEN_GRANTS_CACHE = 'token-grants';

/**
 * The `Token` strategy of the auth guard. A request costs what a JWT request costs: the token
 * by its key's hash (with its owner and the owner's membership) and its grants come from
 * metadata caches, so a warm request sends no query, and a deleted or rotated token, a left
 * workspace or a permission change is seen at once, on any instance.
 */
@Injectable()
export class TokenAuthenticator {
  private readonly lookups: MetadataCache<string, TokenLookup | null>;
  private readonly grantsCache: MetadataCache<number, TokenGrants>;

  constructor(
    private readonly repo: TokenRepository,
    caches: Caches,
  ) {
    this.lookups = caches.metadata<string, TokenLookup | null>('token-lookups');
    this.grantsCache = caches.metadata<number, TokenGrants>(TOKEN_GRANTS_CACHE);
  }

  /** `parts`: the `Authorization` header split on whitespace, its first part being `Token` (any case). */
  async authenticate(parts: string[]): Promise<AuthenticatedToken> {
    if (parts.length === 1) throw TokenAuthenticationFailure.noKey();
    if (parts.length > 2) throw TokenAuthenticationFailure.spaces();
    const key = parts[1];
    // No key of another length was ever issued: answered without a query.
    if (key.length !== TOKEN_KEY_LENGTH) throw TokenAuthenticationFailure.unknown();
    const hash = hashTokenKey(key);
    const found = await this.lookups.get(hash, () => this.repo.lookup(hash));
    if (!found) throw TokenAuthenticationFailure.unknown();
    if (!found.isMember) throw TokenAuthenticationFailure.ownerLeft();
    if (!found.user.isActive) throw TokenAuthenticationFailure.ownerInactive();
    const grants = await this.grantsCache.get(found.tokenId, async () => {
      const rows = (await this.repo.permissionsOf([found.tokenId], { withTrashed: true })).get(found.tokenId) ?? [];
      return new TokenGrants(found.workspaceId, rows);
    });
    return { id: found.tokenId, workspaceId: found.workspaceId, user: found.user, grants };
  }
}
