// Hinglish in search queries: Indian shoppers type Hindi words in Latin letters beside English
// ones ("ladies chappal", "bachon ke liye school bag", "ghadi"). Product names are mostly in
// English, so a Hinglish word also matches its English meaning (a little below the word itself),
// and Hindi's little words (ke, liye, wala...) ask nothing of the products, like English stop
// words. Data, not rules: add words here as search analytics show them (queries that found
// nothing, GET /admin/catalogs/{id}/search-analytics).

/** Hindi function words: postpositions, "for", "with", "and", "-wala". */
export const HINGLISH_STOP_WORDS = new Set(['ka', 'ke', 'ki', 'ko', 'liye', 'lie', 'se', 'me', 'mein', 'aur', 'wala', 'wali', 'wale', 'vala', 'vali', 'vale', 'ek', 'sasta', 'sasti', 'accha', 'achha'])

/** Hinglish words and spellings, with the English (or usual) words a catalog names them by. */
export const HINGLISH_MEANINGS = new Map<string, string[]>([
  ['ladies', ['women', 'womens']],
  ['mahila', ['women', 'womens']],
  ['aurat', ['women', 'womens']],
  ['aurton', ['women', 'womens']],
  ['gents', ['men', 'mens']],
  ['mard', ['men', 'mens']],
  ['purush', ['men', 'mens']],
  ['ladki', ['girls', 'girl']],
  ['ladkiyon', ['girls', 'girl']],
  ['ladka', ['boys', 'boy']],
  ['ladkon', ['boys', 'boy']],
  ['bachon', ['kids', 'kid']],
  ['bacchon', ['kids', 'kid']],
  ['baccho', ['kids', 'kid']],
  ['bachche', ['kids', 'kid']],
  ['bacche', ['kids', 'kid']],
  ['baby', ['kids', 'baby']],
  ['ghadi', ['watch', 'clock']],
  ['chadar', ['bedsheet']],
  ['tel', ['oil']],
  ['baal', ['hair']],
  ['khilona', ['toy']],
  ['khilone', ['toy']],
  ['basta', ['bag']],
  ['mixie', ['mixer']],
  ['sari', ['saree']],
  ['tava', ['tawa']],
  ['kadhai', ['kadai']],
  ['karahi', ['kadai']],
  ['jhumki', ['jhumka']],
  ['chappals', ['chappal']],
  ['joote', ['shoes']],
  ['juta', ['shoes']],
  ['jutti', ['shoes']],
  ['kapde', ['clothing']],
  ['chashma', ['sunglasses', 'eyewear']],
  ['atta', ['atta', 'flour']],
  ['chawal', ['rice']],
  ['doodh', ['milk']],
  ['cheeni', ['sugar']],
])
