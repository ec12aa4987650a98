export interface Page {
  page: number
  limit: number
}

export interface PageMeta {
  total: number
  page: number
  limit: number
  totalPages: number
}

export function pageMeta(total: number, { page, limit }: Page): PageMeta {
  return { total, page, limit, totalPages: Math.ceil(total / limit) }
}

export function pageOffset({ page, limit }: Page): number {
  return (page - 1) * limit
}

/** A page asked for by a list that answers whole when neither is given. */
export interface OptionalPage {
  page?: number | undefined
  limit?: number | undefined
}

/** No LIMIT in effect: the whole list in one answer (PostgreSQL's LIMIT takes a bigint). */
const NO_LIMIT = Number.MAX_SAFE_INTEGER

/**
 * A list that pages when asked and answers whole when not: lists that were answered whole before
 * they paged (zones, coupons, categories, API keys, COD-blocked pincodes) keep their old answer for
 * a client that sends neither `page` nor `limit`; either one asks for a page (`limit` 20 by default).
 * `rows` reads one window of the list in its order; `count` its size, read only when paging.
 */
export async function wholeOrPage<T>(
  asked: OptionalPage,
  rows: (window: { limit: number; offset: number }) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<{ data: T[]; meta: PageMeta }> {
  if (asked.page === undefined && asked.limit === undefined) {
    const data = await rows({ limit: NO_LIMIT, offset: 0 })
    return { data, meta: { total: data.length, page: 1, limit: data.length, totalPages: data.length > 0 ? 1 : 0 } }
  }
  const page = { page: asked.page ?? 1, limit: asked.limit ?? 20 }
  const [data, total] = await Promise.all([rows({ limit: page.limit, offset: pageOffset(page) }), count()])
  return { data, meta: pageMeta(total, page) }
}
