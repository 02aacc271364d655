import { Param, ParseIntPipe } from '@nestjs/common';

/**
 * A numeric path id. The URL conventions only let digits through (anything else is a 404
 * `URL_NOT_FOUND`, as Baserow's URL patterns do), so this only converts.
 */
export const IdParam = (name: string): ParameterDecorator => Param(name, ParseIntPipe);
