import { parseSql } from '../../src/sql/parser.js';
for (const t of ['\x1b[2J', 'SELECT \x07 FROM a', "SELECT 'a\x1bb' FROM", 'SELECT `a\x1b` FROM x JOIN', 'SELECT a\u202eb FROM', 'CREATE TABLE \x00 (a INT)']) console.log(JSON.stringify(parseSql(t)));
for (const t of ['SELECT 😀 FROM a', "SELECT 'a\x1bb FROM", 'SELECT é', 'SELECT \ud800 x', 'SELECT \u200b']) console.log(JSON.stringify(parseSql(t)));
for (const t of ['SELECT a FROM `x\x1b[2J` `y\x1b`', "SELECT a FROM x 'a\x1b'"]) console.log(JSON.stringify(parseSql(t)));
