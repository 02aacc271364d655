import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * The app's middlewares as one Express layer: they run in order, as `app.use(...handlers)`
 * would run them, without the router's matching and bookkeeping between each pair. A
 * handler's error (passed to `next`, thrown, or a rejected promise it returns) goes to
 * Express's error handling at once, skipping the handlers after it, as the router does.
 */
export function middlewareChain(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    let left = false;
    const next = (error?: unknown): void => {
      if (left) return;
      if ((error !== undefined && error !== null) || index === handlers.length) {
        // What runs after the chain (the routes) catches its own errors: none comes back here.
        left = true;
        return error !== undefined && error !== null ? done(error) : done();
      }
      const handler = handlers[index++];
      try {
        const result = handler(req, res, next) as unknown;
        if (result instanceof Promise) result.catch((rejection: unknown) => next(rejection ?? new Error('Rejected promise')));
      } catch (thrown) {
        if (!left) next(thrown);
        else throw thrown;
      }
    };
    next();
  };
}
