// Images of a return or a conversation (the customer's uploads, an agent's attachments): thumbnails that open full size.
import { Box } from '@mui/material'

export function Images({ urls }: { urls: string[] | undefined }) {
  if (!urls || urls.length === 0) return null
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', my: 1 }} data-testid="images">
      {urls.map((url) => (
        <a key={url} href={url} target="_blank" rel="noreferrer">
          <img src={url} alt="Image in the conversation" style={{ width: 96, height: 96, objectFit: 'cover', border: '1px solid #ccc' }} />
        </a>
      ))}
    </Box>
  )
}
