import { FormulaEval } from './support/formula-eval';
const formulas = process.env.F!.split('\n').filter(Boolean);
test('smoke', async () => {
  const db = await FormulaEval.open();
  const row = { Num: 1.5, Text: 'x', Date: '2020-01-01', DateTime: '2020-01-07T13:05:09.000000Z', Dur: 3661, Bool: true, Link: [{ Name: 'a', Amount: 1.5 }, { Name: null, Amount: 2.25 }, { Name: 'c', Amount: null }] };
  for (const f of formulas) {
    try { const r = await db.eval(f, row); console.log(f, '=>', JSON.stringify(r.value), r.type.name, JSON.stringify(r.type.props), r.type.error ?? ''); }
    catch (e) { console.log(f, 'THROWS', (e as Error).message); }
  }
  await db.close();
});
