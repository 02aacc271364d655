import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createKeyPair, KeyPair } from '../src/import-export/archive/signature';
import { signUp, SignedUp, TestApp } from './support/app';
import { baserowDatabase, CONTRACT, CONTRACT_NAME, LOGO, LOGO_NAME } from './support/baserow-fixture';
import { endedJob } from './support/fixtures';
import { filesUnder, leftoverUploads } from './support/files';
import { buildBaserowZip, startAppTrustingBaserow, importZip, RawEntry, readZip, uploadImport, writeZip } from './support/workspace-zips';

/**
 * Workspace import refusals: every bad input gets Baserow's error code (never a 500), nothing is
 * half-imported, and the uploaded zip is removed once an import ends, whatever its outcome.
 */

let t: TestApp;
let ada: SignedUp;
/** A database of another workspace of Ada's. */
let elsewhere: number;
/** The key "another Baserow" signs with, trusted by the instance. */
let baserowKeys: KeyPair;

const api = (method: string, path: string, body?: unknown, token = ada.token) => t.request(method, path, { token, body });

beforeAll(async () => {
  // Application JSON beyond 1 MB is refused (the fixtures are far smaller).
  ({ t, baserowKeys } = await startAppTrustingBaserow({ IMPORT_EXPORT_MAX_APPLICATION_MB: '1' }));
  ada = await signUp(t, 'Ada');
  const workspace = (await api('POST', '/api/workspaces/', { name: 'Elsewhere' })).body.id;
  elsewhere = (await api('POST', `/api/applications/workspace/${workspace}/`, { name: 'Other', type: 'database' })).body.id;
});
afterAll(async () => t?.close());

describe('bad input', () => {
  let eve: SignedUp;
  let ws: number;
  const good = () => buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized: baserowDatabase(ada.email) }], files: { [CONTRACT_NAME]: CONTRACT, [LOGO_NAME]: LOGO }, keys: baserowKeys });
  const appNames = async () => (await api('GET', `/api/applications/workspace/${ws}/`)).body.map((a: any) => a.name);
  const importFiles = () => filesUnder(join(t.config.mediaRoot, 'import_files'));
  const expectRefused = async (zip: Buffer, status: number, error: string) => {
    const res = await uploadImport(t, ada.token, ws, zip);
    expect([res.status, (res.body as any).error]).toEqual([status, error]);
    expect(leftoverUploads(t)).toEqual([]);
  };
  /** Uploads (accepted) then imports; the job fails with `error` and nothing is left: no application, no uploaded zip. */
  const expectFailedImport = async (zip: Buffer, human: string | RegExp) => {
    const before = await appNames();
    const upload = await uploadImport(t, ada.token, ws, zip);
    expect(upload.status).toBe(200);
    const res = await api('POST', `/api/workspaces/${ws}/import/async/`, { resource_id: (upload.body as any).id });
    expect(res.status).toBe(202);
    const job = await endedJob(t, ada.token, res.body.id);
    expect(job.state).toBe('failed');
    expect(job.human_readable_error).toMatch(human);
    expect(await appNames()).toEqual(before);
    expect(importFiles()).toEqual([]);
    // The resource is gone with its zip.
    expect((await api('POST', `/api/workspaces/${ws}/import/async/`, { resource_id: (upload.body as any).id })).body.error).toBe('ERROR_RESOURCE_DOES_NOT_EXIST');
  };

  beforeAll(async () => {
    eve = await signUp(t, 'Eve');
    ws = (await api('POST', '/api/workspaces/', { name: 'Target' })).body.id;
  });

  test('a non-member, or a workspace that does not exist, reaches none of the routes', async () => {
    const upload = await uploadImport(t, eve.token, ws, (await good()).zip);
    expect([upload.status, (upload.body as any).error]).toEqual([400, 'ERROR_USER_NOT_IN_GROUP']);
    expect(leftoverUploads(t)).toEqual([]);
    for (const [method, path, body] of [
      ['POST', `/api/workspaces/${ws}/export/async/`, {}],
      ['GET', `/api/workspaces/${ws}/export/`, undefined],
      ['POST', `/api/workspaces/${ws}/import/async/`, { resource_id: 1 }],
      ['DELETE', `/api/workspaces/${ws}/import/1/`, undefined],
    ] as const) {
      const res = await api(method, path, body, eve.token);
      expect([path, res.status, res.body.error]).toEqual([path, 400, 'ERROR_USER_NOT_IN_GROUP']);
      const missing = await api(method, path.replace(`/${ws}/`, '/999999/'), body);
      expect([path, missing.status, missing.body.error]).toEqual([path, 404, 'ERROR_GROUP_DOES_NOT_EXIST']);
    }
  });

  test("another user's resource, or one of no one, is ERROR_RESOURCE_DOES_NOT_EXIST (to import and to delete)", async () => {
    const evesWs = (await api('POST', '/api/workspaces/', { name: 'Eve' }, eve.token)).body.id;
    const upload = await uploadImport(t, eve.token, evesWs, (await good()).zip);
    expect(upload.status).toBe(200);
    const id = (upload.body as any).id;
    expect(await api('POST', `/api/workspaces/${ws}/import/async/`, { resource_id: id })).toMatchObject({ status: 404, body: { error: 'ERROR_RESOURCE_DOES_NOT_EXIST' } });
    expect(await api('DELETE', `/api/workspaces/${ws}/import/${id}/`)).toMatchObject({ status: 404, body: { error: 'ERROR_RESOURCE_DOES_NOT_EXIST' } });
    expect(await api('POST', `/api/workspaces/${ws}/import/async/`, { resource_id: 999999 })).toMatchObject({ status: 404, body: { error: 'ERROR_RESOURCE_DOES_NOT_EXIST' } });
    expect(await api('POST', `/api/workspaces/${ws}/import/async/`, { resource_id: 'x' })).toMatchObject({ status: 400, body: { error: 'ERROR_REQUEST_BODY_VALIDATION' } });
    // Its owner deletes it: its zip goes.
    expect((await api('DELETE', `/api/workspaces/${evesWs}/import/${id}/`, undefined, eve.token)).status).toBe(204);
    expect(importFiles()).toEqual([]);
    expect(await api('POST', `/api/workspaces/${evesWs}/import/async/`, { resource_id: id }, eve.token)).toMatchObject({ status: 404, body: { error: 'ERROR_RESOURCE_DOES_NOT_EXIST' } });
  });

  test('not a zip is ERROR_INVALID_FILE; an archive with an unsafe entry or a bomb is ERROR_RESOURCE_IS_INVALID', async () => {
    await expectRefused(Buffer.from('not a zip at all'), 400, 'ERROR_INVALID_FILE');
    const { zip } = await good();
    await expectRefused(zip.subarray(0, zip.length - 30), 400, 'ERROR_INVALID_FILE');
    const withExtra = async (extra: RawEntry) => (await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized: baserowDatabase(ada.email) }], keys: baserowKeys, extra: [extra] })).zip;
    // An extra harmless entry (counted in the manifest) is accepted: the refusals below are for the entry itself.
    const harmless = await uploadImport(t, ada.token, ws, await withExtra({ name: 'readme.txt', content: Buffer.from('x') }));
    expect(harmless.status).toBe(200);
    expect((await api('DELETE', `/api/workspaces/${ws}/import/${(harmless.body as any).id}/`)).status).toBe(204);
    for (const name of ['../../evil.txt', 'files/../../../evil.txt', '/etc/evil']) await expectRefused(await withExtra({ name, content: Buffer.from('x') }), 400, 'ERROR_RESOURCE_IS_INVALID');
    await expectRefused(await withExtra({ name: 'link', content: Buffer.from('/etc/passwd'), mode: 0o120777 }), 400, 'ERROR_RESOURCE_IS_INVALID');
    // 50 MB of zeros deflate to about 50 KB: far past the ratio.
    await expectRefused(await withExtra({ name: 'bomb.bin', content: Buffer.alloc(50 * 1024 * 1024) }), 400, 'ERROR_RESOURCE_IS_INVALID');
    void zip;
    expect(await appNames()).toEqual([]);
  });

  test('a manifest that is missing, of another version, malformed or miscounting its files is ERROR_RESOURCE_IS_INVALID', async () => {
    const entries = [...(await readZip((await good()).zip))].map(([name, content]) => ({ name, content }));
    await expectRefused(await writeZip(entries.filter((e) => e.name !== 'manifest.json')), 400, 'ERROR_RESOURCE_IS_INVALID');
    for (const tamper of [
      (m: any) => (m.version = '2.0.0'),
      (m: any) => delete m.checksums,
      (m: any) => (m.configuration = {}),
      (m: any) => (m.applications.database.items[0].files = {}),
      (m: any) => (m.total_files += 1),
    ]) {
      await expectRefused((await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized: baserowDatabase(ada.email) }], keys: baserowKeys, tamper })).zip, 400, 'ERROR_RESOURCE_IS_INVALID');
    }
    await expectRefused(await writeZip([...entries.filter((e) => e.name !== 'manifest.json'), { name: 'manifest.json', content: Buffer.from('{not json') }]), 400, 'ERROR_RESOURCE_IS_INVALID');
  });

  test('signatures: unsigned, forged or from an untrusted key are refused, as Baserow with verify_import_signature on', async () => {
    const serialized = baserowDatabase(ada.email);
    await expectRefused((await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized }], keys: null })).zip, 400, 'ERROR_RESOURCE_IS_INVALID');
    await expectRefused((await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized }], keys: await createKeyPair() })).zip, 400, 'ERROR_UNTRUSTED_PUBLIC_KEY');
    // Signed, then the manifest changed: the signature no longer holds.
    const { zip } = await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized }], keys: baserowKeys });
    const entries = [...(await readZip(zip))].map(([name, content]) => ({ name, content }));
    const manifest = JSON.parse(entries.find((e) => e.name === 'manifest.json')!.content.toString());
    manifest.applications.database.items[0].name = 'Forged';
    await expectRefused(await writeZip(entries.map((e) => (e.name === 'manifest.json' ? { name: e.name, content: Buffer.from(JSON.stringify(manifest)) } : e))), 400, 'ERROR_RESOURCE_IS_INVALID');
    const signature = JSON.parse(entries.find((e) => e.name === 'manifest_signature.json')!.content.toString());
    signature.signature = Buffer.from('forged').toString('base64');
    await expectRefused(await writeZip(entries.map((e) => (e.name === 'manifest_signature.json' ? { name: e.name, content: Buffer.from(JSON.stringify(signature)) } : e))), 400, 'ERROR_RESOURCE_IS_INVALID');
  });

  test('with verify_import_signature off (staff setting), an unsigned zip or one of an untrusted key imports', async () => {
    const target = (await api('POST', '/api/workspaces/', { name: 'Unsigned' })).body.id;
    const serialized = baserowDatabase(ada.email);
    const zipSignedBy = async (keys: KeyPair | null) => (await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized }], files: { [CONTRACT_NAME]: CONTRACT, [LOGO_NAME]: LOGO }, keys })).zip;
    expect((await api('PATCH', '/api/settings/update/', { verify_import_signature: false })).status).toBe(200);
    try {
      for (const keys of [null, await createKeyPair()]) expect((await importZip(t, ada.token, target, await zipSignedBy(keys))).state).toBe('finished');
      expect((await api('GET', `/api/applications/workspace/${target}/`)).body.map((a: any) => a.name)).toEqual(['CRM', 'CRM']);
    } finally {
      expect((await api('PATCH', '/api/settings/update/', { verify_import_signature: true })).status).toBe(200);
    }
    // On again: refused again.
    await expectRefused(await zipSignedBy(null), 400, 'ERROR_RESOURCE_IS_INVALID');
  });

  test('a file the manifest lists missing, a checksum that does not hold, an unknown field type: the job fails, nothing is imported, the zip is removed', async () => {
    const serialized = baserowDatabase(ada.email);
    const files = { [CONTRACT_NAME]: CONTRACT, [LOGO_NAME]: LOGO };
    await expectFailedImport((await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized }], files, keys: baserowKeys, omit: [LOGO_NAME] })).zip, 'The requested resource does not exist.');
    await expectFailedImport(
      (await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized }], files, keys: baserowKeys, tamper: (m: any) => (m.checksums[LOGO_NAME] = '0'.repeat(64)) })).zip,
      /corrupted/,
    );
    const unknown = baserowDatabase(ada.email) as any;
    unknown.tables[1].fields.push({ ...unknown.tables[1].fields[1], id: 2099, name: 'Geo', type: 'point_on_map' });
    await expectFailedImport((await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized: unknown }], files, keys: baserowKeys })).zip, /corrupted/);
    // A file cell naming a file the zip does not carry.
    await expectFailedImport((await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized }], files: { [CONTRACT_NAME]: CONTRACT }, keys: baserowKeys })).zip, 'The requested resource does not exist.');
    await expectFailedImport((await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized: { tables: 'no' } }], keys: baserowKeys })).zip, /corrupted/);
    // An application's JSON beyond IMPORT_EXPORT_MAX_APPLICATION_MB (incompressible, so no bomb): not read.
    const padded = { ...serialized, padding: randomBytes(900 * 1024).toString('base64') };
    await expectFailedImport((await buildBaserowZip({ applications: [{ id: 77, name: 'CRM', serialized: padded }], files, keys: baserowKeys })).zip, /corrupted/);
  });

  test('a failure while the second application is written leaves nothing of the first (all or nothing)', async () => {
    const broken = baserowDatabase(ada.email) as any;
    // Two rows with one id: the second database's rows cannot be written.
    broken.tables[1].rows.push({ ...broken.tables[1].rows[0] });
    const { zip } = await buildBaserowZip({
      applications: [
        { id: 77, name: 'CRM', serialized: baserowDatabase(ada.email) },
        { id: 78, name: 'Broken', serialized: { ...broken, id: 78, name: 'Broken' } },
      ],
      files: { [CONTRACT_NAME]: CONTRACT, [LOGO_NAME]: LOGO },
      keys: baserowKeys,
    });
    await expectFailedImport(zip, /./);
    const tables = (await api('GET', '/api/applications/')).body.filter((a: any) => a.workspace.id === ws);
    expect(tables).toEqual([]);
  });

  test('application_ids the export does not have fail the job with ERROR_APPLICATION_IDS_NOT_FOUND; listed ones are the only ones imported', async () => {
    const upload = await uploadImport(t, ada.token, ws, (await good()).zip);
    const res = await api('POST', `/api/workspaces/${ws}/import/async/`, { resource_id: (upload.body as any).id, application_ids: [12345] });
    const job = await endedJob(t, ada.token, res.body.id);
    expect([job.state, job.human_readable_error]).toEqual(['failed', 'One or more of the specified application IDs were not found in the export file.']);
    expect(await appNames()).toEqual([]);
    const two = await buildBaserowZip({
      applications: [
        { id: 77, name: 'CRM', serialized: { ...baserowDatabase(ada.email), tables: [] } },
        { id: 78, name: 'Other', serialized: { ...baserowDatabase(ada.email), id: 78, name: 'Other', tables: [] } },
      ],
      keys: baserowKeys,
    });
    const second = await uploadImport(t, ada.token, ws, two.zip);
    const only = await api('POST', `/api/workspaces/${ws}/import/async/`, { resource_id: (second.body as any).id, application_ids: [78] });
    expect((await endedJob(t, ada.token, only.body.id)).state).toBe('finished');
    expect(await appNames()).toEqual(['Other']);
  });

  test('an export of applications of another workspace is PERMISSION_DENIED', async () => {
    const res = await api('POST', `/api/workspaces/${ws}/export/async/`, { application_ids: [elsewhere] });
    expect([res.status, res.body.error]).toEqual([401, 'PERMISSION_DENIED']);
    expect((await api('POST', `/api/workspaces/${ws}/export/async/`, { application_ids: 'x' })).body.error).toBe('ERROR_REQUEST_BODY_VALIDATION');
  });
});
