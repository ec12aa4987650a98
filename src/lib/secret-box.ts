// Secrets we must be able to use again (webhook signing secrets), encrypted at rest with AES-256-GCM
// under a key derived from AUTH_SECRET. Changing AUTH_SECRET makes them unreadable: rotate the
// webhook secrets after rotating it.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

export function createSecretBox(masterSecret: string, purpose: string) {
  const key = createHash('sha256').update(`${purpose}\0${masterSecret}`).digest()
  return {
    seal(plain: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${sealed.toString('base64url')}`
    },
    open(box: string): string {
      const [version, iv, tag, sealed] = box.split('.')
      if (version !== 'v1' || !iv || !tag || sealed === undefined) throw new Error('Unknown secret box format')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}

export type SecretBox = ReturnType<typeof createSecretBox>
