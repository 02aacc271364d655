/** A setting with a bad value, or two settings that disagree: start-up stops with its message. */
export class ConfigError extends Error {}
