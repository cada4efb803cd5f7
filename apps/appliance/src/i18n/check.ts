import { type Part, parsePattern, patternParams, pluralSelectors } from './format.js';

/** What is wrong with one message of a catalog. */
export interface CatalogProblem {
  lang: string;
  key: string;
  problem: 'missing' | 'stale' | 'unparsable' | 'params' | 'plural';
  detail: string;
}

/** The plural categories a UI number (0 to 1000) can fall in, for one language. */
export function usedPluralCategories(lang: string): string[] {
  const rules = new Intl.PluralRules(lang);
  const seen = new Set<string>();
  for (let n = 0; n <= 1000; n++) seen.add(rules.select(n));
  return [...seen].sort();
}

function parse(lang: string, key: string, pattern: unknown, problems: CatalogProblem[]): Part[] | null {
  if (typeof pattern !== 'string') {
    problems.push({ lang, key, problem: 'unparsable', detail: `not a string: ${typeof pattern}` });
    return null;
  }
  try {
    return parsePattern(pattern);
  } catch (error) {
    problems.push({ lang, key, problem: 'unparsable', detail: (error as Error).message });
    return null;
  }
}

/**
 * Compares a catalog with the English source: a key English has and the catalog lacks, a key the
 * catalog keeps after English dropped it, a pattern that does not parse, parameters that differ
 * from English, and plural branches that do not fit the language (a category the language does
 * not have, or one it uses for some number from 0 to 1000 missing). Checking the source against
 * itself finds faults in English.
 */
export function checkCatalog(
  lang: string,
  catalog: Readonly<Record<string, unknown>>,
  source: Readonly<Record<string, string>>,
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const categories = new Set(new Intl.PluralRules(lang).resolvedOptions().pluralCategories);
  const needed = usedPluralCategories(lang);
  for (const key of Object.keys(source)) {
    if (!Object.hasOwn(catalog, key))
      problems.push({ lang, key, problem: 'missing', detail: 'no translation' });
  }
  for (const [key, pattern] of Object.entries(catalog)) {
    if (!Object.hasOwn(source, key)) {
      problems.push({ lang, key, problem: 'stale', detail: 'English no longer has this key' });
      continue;
    }
    const parts = parse(lang, key, pattern, problems);
    const english = parse('en', key, source[key], []);
    if (!parts || !english) continue;
    const have = patternParams(parts).join(', ');
    const want = patternParams(english).join(', ');
    if (have !== want)
      problems.push({ lang, key, problem: 'params', detail: `has {${have}}, English has {${want}}` });
    for (const { name, selectors } of pluralSelectors(parts)) {
      const wrong = selectors.filter((s) => !s.startsWith('=') && !categories.has(s as Intl.LDMLPluralRule));
      if (wrong.length > 0)
        problems.push({
          lang,
          key,
          problem: 'plural',
          detail: `{${name}}: ${lang} has no ${wrong.join(', ')}`,
        });
      const lacking = needed.filter((c) => !selectors.includes(c));
      if (lacking.length > 0)
        problems.push({ lang, key, problem: 'plural', detail: `{${name}}: needs ${lacking.join(', ')}` });
    }
  }
  return problems;
}
