import { ArchiveRefused } from '../import-export.errors';

/** Baserow's workspace export format (`core/import_export/handler.py`). */
export const EXPORT_FORMAT_VERSION = '1.0.0';
/** The Baserow version Rowspace's exports say they come from (the one it is wire-compatible with). */
export const BASEROW_VERSION = '1.35.3';
export const MANIFEST_NAME = 'manifest.json';
export const SIGNATURE_NAME = 'manifest_signature.json';

/** One exported application in the manifest; `files.schema` is its JSON file in the zip. */
export interface ManifestApplication {
  id: number;
  type: string;
  name: string;
  uuid: string;
  total_files?: number;
  files: { schema: string };
}

export interface Manifest {
  version: string;
  baserow_version?: string;
  total_files?: number;
  configuration: { only_structure: boolean };
  applications: Record<string, { version?: string; configuration?: Record<string, unknown>; items: ManifestApplication[] }>;
  /** Every file of the zip but the manifest and its signature, with its SHA-256. */
  checksums: Record<string, string>;
}

/** `create_manifest`: the applications grouped by type, the checksums, the file count (with the manifest and its signature). */
export function buildManifest(applications: ManifestApplication[], checksums: Record<string, string>, onlyStructure: boolean): Manifest {
  const manifest: Manifest = {
    version: EXPORT_FORMAT_VERSION,
    baserow_version: BASEROW_VERSION,
    total_files: Object.keys(checksums).length + 2,
    configuration: { only_structure: onlyStructure },
    applications: {},
    checksums,
  };
  for (const application of applications) {
    (manifest.applications[application.type] ??= { version: EXPORT_FORMAT_VERSION, configuration: {}, items: [] }).items.push(application);
  }
  return manifest;
}

const VERSION = /^\d+\.\d+\.\d+$/;
const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * `validate_manifest`: the manifest parses, its version is one Baserow has a schema for
 * (1.0.0), it holds to that schema, and `total_files` counts the zip's entries.
 */
export function checkManifest(text: string, entryCount: number): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ArchiveRefused('invalid', 'Manifest file is corrupted.');
  }
  if (!isObject(data)) throw new ArchiveRefused('invalid', 'Manifest file is corrupted: not an object');
  if (data.version !== EXPORT_FORMAT_VERSION) throw new ArchiveRefused('invalid', `Manifest version ${String(data.version)} is not supported.`);
  const fail = (what: string): never => {
    throw new ArchiveRefused('invalid', `Manifest file is corrupted: ${what}`);
  };
  if (data.baserow_version !== undefined && (typeof data.baserow_version !== 'string' || !VERSION.test(data.baserow_version))) fail('baserow_version');
  if (data.total_files !== undefined && !Number.isInteger(data.total_files)) fail('total_files');
  if (!isObject(data.configuration) || typeof data.configuration.only_structure !== 'boolean') fail('configuration');
  if (!isObject(data.applications)) fail('applications');
  if (!isObject(data.checksums) || !Object.values(data.checksums).every((v) => typeof v === 'string')) fail('checksums');
  for (const [type, group] of Object.entries(data.applications as Record<string, unknown>)) {
    if (!isObject(group)) fail(`applications.${type}`);
    const { version, configuration, items } = group as Record<string, unknown>;
    if (version !== undefined && (typeof version !== 'string' || !VERSION.test(version))) fail(`applications.${type}.version`);
    if (configuration !== undefined && !isObject(configuration)) fail(`applications.${type}.configuration`);
    // Baserow's schema describes the items of its own types only; an import reads the items of every type.
    if (!Array.isArray(items)) fail(`applications.${type}.items`);
    for (const item of items as unknown[]) {
      if (!isObject(item)) fail(`applications.${type}.items`);
      const it = item as Record<string, unknown>;
      if (!Number.isInteger(it.id) || typeof it.type !== 'string' || typeof it.name !== 'string' || typeof it.uuid !== 'string') fail(`applications.${type}.items`);
      if (it.total_files !== undefined && !Number.isInteger(it.total_files)) fail(`applications.${type}.items.total_files`);
      if (!isObject(it.files) || typeof it.files.schema !== 'string') fail(`applications.${type}.items.files`);
    }
  }
  if ((data.total_files ?? 0) !== entryCount) fail("Files count doesn't match");
  return data as unknown as Manifest;
}
