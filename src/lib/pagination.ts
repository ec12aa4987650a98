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
