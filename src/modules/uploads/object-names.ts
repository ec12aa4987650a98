// The names of stored evidence files: `<purpose prefix>/<customer id>/<upload id>-<tag>.<ext>`,
// where the tag is an HMAC of the rest of the name under a key derived from AUTH_SECRET. The
// public GET of the local driver checks it in memory, so a forged or never-issued name is 404
// without a database query or a look at the disk (issue #20: every miss cost a query).
import { createHmac } from 'node:crypto'
import { safeEqual } from '../../lib/hashing.ts'

const TAG_HEX = 24 // 96 bits: no one forges a tag by trying
const TAGGED = new RegExp(`^((?:support/tickets|returns)/usr_[0-9A-Z]{26}/upl_[0-9A-Z]{26})-([0-9a-f]{${TAG_HEX}})\\.(png|jpg|webp|gif)$`)
/**
 * Names issued before tags existed, or a tag made under an earlier AUTH_SECRET: such a file is
 * served only when it is on disk, which is checked before the database.
 */
const UNTAGGED = /^(?:support\/tickets|returns)\/usr_[0-9A-Z]{26}\/upl_[0-9A-Z]{26}(?:-[0-9a-f]{24})?\.(?:png|jpg|webp|gif)$/

export type NameCheck = 'issued' | 'unverified' | 'never-issued'

export function createObjectNames(key: Buffer | string) {
  const tag = (stem: string, ext: string) => createHmac('sha256', key).update(`${stem}.${ext}`).digest('hex').slice(0, TAG_HEX)
  return {
    /** `stem` is `<prefix>/<customer id>/<upload id>`. */
    name: (stem: string, ext: string) => `${stem}-${tag(stem, ext)}.${ext}`,

    /**
     * issued: the tag proves this service made the name; unverified: an untagged (older) name or
     * a tag that does not verify, which may still name a file; never-issued: no name of ours has
     * this shape.
     */
    check(objectName: string): NameCheck {
      const tagged = TAGGED.exec(objectName)
      if (tagged && safeEqual(tag(tagged[1]!, tagged[3]!), tagged[2]!)) return 'issued'
      return UNTAGGED.test(objectName) ? 'unverified' : 'never-issued'
    },
  }
}

export type ObjectNames = ReturnType<typeof createObjectNames>
