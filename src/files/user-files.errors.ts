import { ApiError } from '../core/errors/api-error';

/** Baserow's user file errors (`baserow.api.user_files.errors`). */
export const UserFileErrors = {
  invalidFile: () => new ApiError('ERROR_INVALID_FILE', 400, 'No file has been provided or the file is invalid.'),
  fileSizeTooLarge: (limitBytes: number) =>
    new ApiError('ERROR_FILE_SIZE_TOO_LARGE', 413, `The provided file is too large. Max ${Math.floor(limitBytes / 1024 / 1024)}MB is allowed.`),
  urlCouldNotBeReached: () => new ApiError('ERROR_FILE_URL_COULD_NOT_BE_REACHED', 400, 'The provided URL could not be reached.'),
  invalidFileUrl: () => new ApiError('ERROR_INVALID_FILE_URL', 400, 'The provided URL is not valid.'),
  invalidUserFileName: (name: string) => new ApiError('ERROR_INVALID_USER_FILE_NAME_ERROR', 400, `The user file name ${name} is invalid.`),
};

/** Raised while a body is streamed past the size limit (the caller maps it to its answer). */
export class FileTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The file exceeds ${limitBytes} bytes.`);
  }
}
