// LIKE / ILIKE patterns from user text: %, _ and \ are operators in a pattern, so they are escaped
// and the text matches literally (PostgreSQL's default escape character is the backslash).

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** A pattern matching values that contain `text`. */
export const containing = (text: string) => `%${escapeLike(text)}%`

/** A pattern matching values that start with `text`. */
export const startingWith = (text: string) => `${escapeLike(text)}%`
