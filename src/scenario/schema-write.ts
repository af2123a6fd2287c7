/** `npm run schema`: writes schema/scenario.schema.json from the loader's tables (schema.ts). */
import { writeFileSync } from 'node:fs';
import { scenarioSchemaText } from './schema.js';

const out = new URL('../../schema/scenario.schema.json', import.meta.url);
writeFileSync(out, scenarioSchemaText());
process.stdout.write(`wrote ${out.pathname}\n`);
