// e2e suites boot the real app on a fresh database per file (SQLite by default,
// PostgreSQL with ROWSPACE_TEST_DB=postgres); unit specs sit next to them in test/.
module.exports = {
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
    }],
  },
  // What extension modules import (src/core/extensions/extra-modules.ts aliases it outside jest).
  moduleNameMapper: { '^rowspace/extension$': '<rootDir>/src/extension.ts' },
  testEnvironment: 'node',
  testTimeout: 30000,
  maxWorkers: 2,
};
