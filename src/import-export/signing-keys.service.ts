import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { checkSignature, createKeyPair, KeyPair, publicKeyPemOf, SignatureCheck } from './archive/signature';
import { ImportExportRepository } from './import-export.repository';

/**
 * The keys of Baserow's signed exports: this instance's own pair (made at its first export,
 * as `get_or_create_key_pair`), and the public keys an operator trusts
 * (IMPORT_EXPORT_TRUSTED_PUBLIC_KEYS, added at start as `manage_trusted_sources add` does).
 */
@Injectable()
export class SigningKeysService implements OnApplicationBootstrap {
  private readonly logger = new Logger(SigningKeysService.name);
  private own: Promise<KeyPair> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: ImportExportRepository,
    private readonly db: UnitOfWork,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const given of this.config.importExportTrustedPublicKeys) {
      const pem = publicKeyPemOf(given);
      if (!pem) {
        this.logger.error('A key of IMPORT_EXPORT_TRUSTED_PUBLIC_KEYS is no PEM public key (base64 of the PEM expected); it is ignored.');
        continue;
      }
      await this.db.run(async () => {
        if (!(await this.repo.isTrusted(pem))) await this.repo.createSource({ name: 'IMPORT_EXPORT_TRUSTED_PUBLIC_KEYS', publicKey: pem });
      });
    }
  }

  /** The instance's key pair, made and stored on first use. */
  ownKeys(): Promise<KeyPair> {
    this.own ??= this.loadOrCreate().catch((error: unknown) => {
      this.own = null;
      throw error;
    });
    return this.own;
  }

  private async loadOrCreate(): Promise<KeyPair> {
    const stored = await this.repo.ownKeys();
    if (stored) return { privateKeyPem: stored.privateKey, publicKeyPem: stored.publicKey };
    const created = await createKeyPair();
    return this.db.run(async () => {
      // Another instance may have made one meanwhile: the oldest one signs.
      const again = await this.repo.ownKeys();
      if (again) return { privateKeyPem: again.privateKey, publicKeyPem: again.publicKey };
      await this.repo.createSource({ privateKey: created.privateKeyPem, publicKey: created.publicKeyPem });
      return created;
    });
  }

  /** Baserow's `validate_signature` against the trusted sources. */
  async check(manifest: unknown, signature: unknown): Promise<SignatureCheck> {
    // The instance's own key is trusted once it exists; made here, an import of its own export checks against it.
    return checkSignature(manifest, signature, (pem) => this.repo.isTrusted(pem));
  }
}
