// Reading JSON that arrives from outside (provider and carrier callbacks): valid JSON is not yet an
// object (`null`, `5`, `[]` are JSON too), and reading a field of `null` throws.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The text as a JSON object; null when it is not JSON, or JSON that is not an object. */
export function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text)
    return isRecord(parsed) ? parsed : null
  } catch {
    return null
  }
}
