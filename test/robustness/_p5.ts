import { parseSql } from '../../src/sql/parser.js';
console.log(JSON.stringify(parseSql('SELECT a FROM x é')), JSON.stringify(parseSql('SELECT a FROM x y é')), JSON.stringify(parseSql('SELECT a FROM x JOIN ~')));
