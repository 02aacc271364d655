import { tableFromData } from '../src/database/tables/tables.service';

describe('tableFromData (a table created from imported rows)', () => {
  it('takes a million rows: the width is found without spreading every row into one call', () => {
    const data = Array.from({ length: 1_000_000 }, (_, i) => (i === 999_999 ? ['last', 'wide'] : [String(i)]));
    const table = tableFromData(data, true);
    expect(table.fields).toEqual([
      { name: '0', type: 'text' },
      { name: 'Field 2', type: 'text' },
    ]);
    expect(table.rows).toHaveLength(999_999);
    // Cells become text as the rows are written (chunk by chunk), each row as wide as the widest.
    expect(table.cells!(table.rows[table.rows.length - 1])).toEqual(['last', 'wide']);
    expect(table.cells!(table.rows[0])).toEqual(['1', null]);
  });
});
