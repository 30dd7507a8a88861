import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from '@remix-run/form-data-parser'

/**
 * Reads a form post that may carry files (`multipart/form-data`) or not (url-encoded), as it
 * streams in, within limits: at most `maxFiles` files and `maxBytes` of content in all (any one
 * file may use all of it, so a photo over its own limit still arrives whole and is refused by
 * the form with its own message, not by the parser). A file input left empty is no file.
 *
 * A body that breaks a limit, or is not a form, is read to its end and discarded (the server's
 * length check bounds it), so the browser gets our answer rather than a reset connection.
 */
export async function readForm(
  request: Request,
  { maxFiles, maxBytes }: { maxFiles: number; maxBytes: number },
): Promise<{ ok: true; formData: FormData } | { ok: false; problem: 'tooLarge' | 'malformed' }> {
  try {
    const formData = await parseFormData(
      request,
      { maxFiles, maxFileSize: maxBytes, maxTotalSize: maxBytes, maxParts: 200 },
      (file) => (file.size === 0 && UNNAMED.includes(file.name) ? null : file),
    )
    return { ok: true, formData }
  } catch (error) {
    if (!(error instanceof FormDataParseError) && !(error instanceof MultipartParseError)) throw error
    await discardRest(request)
    return { ok: false, problem: isLimitError(error) ? 'tooLarge' : 'malformed' }
  }
}

/**
 * A browser sends a file input left empty as an empty part with `filename=""`; some clients leave
 * the filename out, and the parser then names the file "file-upload". Either, empty, is no file.
 */
const UNNAMED = ['', 'file-upload']

function isLimitError(error: unknown): boolean {
  return (
    error instanceof MaxFilesExceededError ||
    error instanceof MaxFileSizeExceededError ||
    error instanceof MaxTotalSizeExceededError ||
    error instanceof MaxPartsExceededError
  )
}

async function discardRest(request: Request): Promise<void> {
  if (!request.body || request.body.locked) return
  try {
    for await (const _ of request.body);
  } catch {
    // The client went away: nothing left to read.
  }
}
