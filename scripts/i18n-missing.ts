import { missingTranslations } from './po'

const missing = await missingTranslations(process.argv[2] ?? 'en')
for (const m of missing) console.log(m)
console.log(`${missing.length} missing`)
