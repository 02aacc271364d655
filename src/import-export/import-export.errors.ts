import { ApiError } from '../core/errors/api-error';
import { UserFileErrors } from '../files/user-files.errors';

/** Baserow's import/export errors (`baserow.api.import_export.errors`), with their fixed details. */
export const ImportExportErrors = {
  resourceDoesNotExist: () => new ApiError('ERROR_RESOURCE_DOES_NOT_EXIST', 404, 'The requested resource does not exist.'),
  resourceIsInvalid: () => new ApiError('ERROR_RESOURCE_IS_INVALID', 400, 'The resource is invalid or corrupted.'),
  resourceIsBeingImported: () => new ApiError('ERROR_RESOURCE_IS_BEING_IMPORTED', 400, 'The resource is currently being imported.'),
  untrustedPublicKey: () => new ApiError('ERROR_UNTRUSTED_PUBLIC_KEY', 400, 'The public key is not trusted.'),
  applicationIdsNotFound: () => new ApiError('ERROR_APPLICATION_IDS_NOT_FOUND', 400, 'One or more of the specified application IDs were not found in the export file.'),
};

/**
 * Why an archive is refused, as Baserow's handler raises it: `invalid` (ImportExportResourceInvalidFile),
 * `missing` (a file the manifest names is not in it: ImportExportResourceDoesNotExist), `untrusted`
 * (ImportExportResourceUntrustedSignature), `not-a-zip` (InvalidFileStreamError). `reason` says what was wrong, for the logs.
 */
export class ArchiveRefused extends Error {
  constructor(
    readonly kind: 'not-a-zip' | 'invalid' | 'missing' | 'untrusted',
    readonly reason: string,
  ) {
    super(reason);
  }

  /** The request's answer (upload, import start). */
  toApiError(): ApiError {
    if (this.kind === 'not-a-zip') return UserFileErrors.invalidFile();
    if (this.kind === 'untrusted') return ImportExportErrors.untrustedPublicKey();
    if (this.kind === 'missing') return ImportExportErrors.resourceDoesNotExist();
    return ImportExportErrors.resourceIsInvalid();
  }

  /** A failed import job's error (Baserow's `job_exceptions_map` messages). */
  toJobError(): ApiError {
    const error = this.toApiError();
    const messages: Record<ArchiveRefused['kind'], string> = {
      'not-a-zip': 'The file you are trying to import is corrupted.\n    Please try again with a different file.',
      invalid: 'The file you are trying to import is corrupted.\n    Please try again with a different file.',
      missing: 'The requested resource does not exist.',
      untrusted: 'The signature of the resource is not trusted.',
    };
    return new ApiError(error.code, error.status, messages[this.kind]);
  }
}
