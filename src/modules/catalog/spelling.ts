// Typo correction against the catalog's own words. A query word that no catalog word starts with
// is most likely misspelt ("samsng", "headphnes", "iphnoe"): it is matched to the catalog words
// within a small edit distance (transpositions count as one edit), which then join the full-text
// query. Far cheaper at scale than trigram-matching every product, and as good on our judged set.

export interface Vocabulary {
  words: string[]
  /** How many products use each word: the tie-breaker between equally close corrections. */
  frequency: Map<string, number>
}

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits), capped at max + 1. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1)
      row.push(d)
      best = Math.min(best, d)
    }
    if (best > max) return max + 1
    rows.push(row)
  }
  return rows[a.length]![b.length]!
}

/** Up to `limit` corrections for a word, or none when some catalog word already starts with it. */
export function corrections(token: string, vocabulary: Vocabulary, limit = 3): string[] {
  if (token.length < 3 || /^\d+$/.test(token)) return []
  if (vocabulary.words.some((w) => w.startsWith(token))) return []
  const max = token.length <= 4 ? 1 : 2
  const scored: [string, number][] = []
  for (const word of vocabulary.words) {
    const d = editDistance(token, word, max)
    // A longer word whose start is within reach also counts ("prestig" -> "prestige").
    const prefix = word.length > token.length ? editDistance(token, word.slice(0, token.length), 1) + 0.5 : Number.POSITIVE_INFINITY
    const distance = Math.min(d, prefix)
    if (distance <= max) scored.push([word, distance])
  }
  return scored
    .sort((a, b) => a[1] - b[1] || (vocabulary.frequency.get(b[0]) ?? 0) - (vocabulary.frequency.get(a[0]) ?? 0) || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([w]) => w)
}
