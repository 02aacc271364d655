import { Injectable } from '@nestjs/common';
import { Caches, VersionedCache } from '../core/cache/caches';
import type { UserEntity } from '../users/user.entity';
import { TOKEN_KEY_LENGTH, hashTokenKey } from './token-keys';
import { TokenGrants } from './token-permissions';
import { TokenRepository } from './token.repository';
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
 * The `Token` strategy of the auth guard. A request costs what a JWT request costs: one query
 * (the token by its key's hash, with its owner, its version and the owner's membership: a
 * deleted or rotated token, a left workspace or a permission change is seen at once, on any
 * instance) and the grants from the process cache, keyed by the token's version.
 */
@Injectable()
export class TokenAuthenticator {
  private readonly grantsCache: VersionedCache<number, TokenGrants>;

  constructor(
    private readonly repo: TokenRepository,
    caches: Caches,
  ) {
    this.grantsCache = caches.versioned<number, TokenGrants>(TOKEN_GRANTS_CACHE);
  }

  /** `parts`: the `Authorization` header split on whitespace, its first part being `Token` (any case). */
  async authenticate(parts: string[]): Promise<AuthenticatedToken> {
    if (parts.length === 1) throw TokenAuthenticationFailure.noKey();
    if (parts.length > 2) throw TokenAuthenticationFailure.spaces();
    const key = parts[1];
    // No key of another length was ever issued: answered without a query.
    if (key.length !== TOKEN_KEY_LENGTH) throw TokenAuthenticationFailure.unknown();
    const found = await this.repo.lookup(hashTokenKey(key));
    if (!found) throw TokenAuthenticationFailure.unknown();
    if (!found.isMember) throw TokenAuthenticationFailure.ownerLeft();
    if (!found.user.isActive) throw TokenAuthenticationFailure.ownerInactive();
    let grants = this.grantsCache.get(found.tokenId, found.version);
    if (!grants) {
      const rows = (await this.repo.permissionsOf([found.tokenId], { withTrashed: true })).get(found.tokenId) ?? [];
      grants = new TokenGrants(found.workspaceId, rows);
      this.grantsCache.set(found.tokenId, found.version, grants);
    }
    return { id: found.tokenId, workspaceId: found.workspaceId, user: found.user, grants };
  }
}
