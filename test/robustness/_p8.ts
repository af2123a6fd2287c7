import { parseSql } from '../../src/sql/parser.js';
for (const n of [100, 1000, 5000, 20000]) {
  const sql = `SELECT ${'('.repeat(n)}1${')'.repeat(n)} FROM a JOIN b ON a.k = b.k`;
  const r = parseSql(sql); console.log(n, r.ok ? 'ok' : JSON.stringify(r.error).slice(0, 200));
  const sql2 = `SELECT ${Array(n).fill('1').join(' + ')} FROM a JOIN b ON a.k = b.k`;
  const r2 = parseSql(sql2); console.log(n, '+', r2.ok ? 'ok' : JSON.stringify(r2.error).slice(0, 200));
  const sql3 = `SELECT ${'-'.repeat(n)}1 FROM a JOIN b ON a.k = b.k`;
  const r3 = parseSql(sql3); console.log(n, '-', r3.ok ? 'ok' : JSON.stringify(r3.error).slice(0, 200));
  const sql4 = `SELECT ${'NOT '.repeat(n)}TRUE FROM a JOIN b ON a.k = b.k`;
  const r4 = parseSql(sql4); console.log(n, 'NOT', r4.ok ? 'ok' : JSON.stringify(r4.error).slice(0, 200));
}
