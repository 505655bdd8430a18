import { createReadStream } from 'node:fs'
import { connect, type Socket } from 'node:net'
import type { ClamdAddress } from '../../config/readers'

/** What clamd said of a PDF: no signature, the signature it found, or why it could not say. */
export type ScanVerdict = { kind: 'clean' } | { kind: 'infected'; signature: string } | { kind: 'failed'; reason: string }

export type ScanFile = (path: string) => Promise<ScanVerdict>

/** The bytes of one INSTREAM chunk: clamd takes any size up to its StreamMaxLength, and this keeps the writes small. */
const CHUNK_BYTES = 64 * 1024
/** clamd's answer is one short line; anything longer is not clamd. */
const MAX_ANSWER_BYTES = 4096

/**
 * A client of clamd's INSTREAM command (ClamAV's daemon protocol; docs/operations.md, Virus scanning): the file is
 * read from disk and sent as it is read, in chunks each preceded by its length (4 bytes, big-endian), then a
 * zero length; clamd answers `stream: OK`, `stream: <signature> FOUND` or `… ERROR` (its StreamMaxLength passed,
 * for one) and closes the connection. Memory stays at a few chunks whatever the size: a write that fills the
 * socket's buffer waits for it to drain. Nothing waits longer than `timeoutMs` in all.
 *
 * Our own client rather than the `clamscan` package: the protocol is these few lines, and the package also
 * drives the clamscan binary and reads clamd's configuration, which a server that only streams never needs.
 */
export function clamdScanner(address: ClamdAddress, timeoutMs: number): ScanFile {
  return (path) =>
    new Promise<ScanVerdict>((resolve) => {
      const answer: Buffer[] = []
      let answerBytes = 0
      let settled = false
      const socket: Socket = connect('path' in address ? { path: address.path } : { host: address.host, port: address.port })
      const finish = (verdict: ScanVerdict) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        socket.destroy()
        resolve(verdict)
      }
      const timer = setTimeout(() => finish({ kind: 'failed', reason: `no answer within ${Math.round(timeoutMs / 1000)} s` }), timeoutMs)
      socket.on('data', (chunk: Buffer) => {
        answer.push(chunk)
        answerBytes += chunk.length
        const text = Buffer.concat(answer).toString('utf8')
        if (text.includes('\0') || answerBytes > MAX_ANSWER_BYTES) finish(verdictOf(text))
      })
      // clamd closes after its answer; an answer cut short (or none) is a failed scan.
      socket.on('close', () =>
        finish(
          answerBytes > 0
            ? verdictOf(Buffer.concat(answer).toString('utf8'))
            : { kind: 'failed', reason: 'clamd closed the connection without an answer' },
        ),
      )
      socket.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'failed', reason: `clamd: ${error.code ?? error.message}` }))
      socket.on('connect', () => {
        sendFile(socket, path, () => settled).catch((error: NodeJS.ErrnoException) =>
          // clamd may answer (a size limit) and close while the file is still being sent: its answer wins.
          setTimeout(() => finish({ kind: 'failed', reason: `sending the file: ${error.code ?? error.message}` }), 50),
        )
      })
    })
}

/** `zINSTREAM\0`, the file in length-prefixed chunks, then the zero length that ends the stream. */
async function sendFile(socket: Socket, path: string, stopped: () => boolean): Promise<void> {
  await write(socket, Buffer.from('zINSTREAM\0'))
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    if (stopped()) return
    const length = Buffer.alloc(4)
    length.writeUInt32BE(chunk.length)
    await write(socket, Buffer.concat([length, chunk]))
  }
  await write(socket, Buffer.alloc(4))
}

/** Writes, waiting for the socket to drain when its buffer is full (backpressure), or fails with the socket. */
function write(socket: Socket, bytes: Buffer): Promise<void> {
  if (socket.destroyed) return Promise.reject(Object.assign(new Error('the connection is closed'), { code: 'ECONNRESET' }))
  if (socket.write(bytes)) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      socket.off('drain', onDrain).off('close', onClose).off('error', done)
      if (error) reject(error)
      else resolve()
    }
    const onDrain = () => done()
    const onClose = () => done(Object.assign(new Error('the connection is closed'), { code: 'ECONNRESET' }))
    socket.on('drain', onDrain).on('close', onClose).on('error', done)
  })
}

/** clamd's one line: `stream: OK`, `stream: Eicar-Signature FOUND`, `INSTREAM size limit exceeded. ERROR`. */
function verdictOf(text: string): ScanVerdict {
  const line = text.split('\0')[0]!.trim()
  if (line === 'stream: OK') return { kind: 'clean' }
  const found = /^stream: (.+) FOUND$/.exec(line)
  if (found) return { kind: 'infected', signature: found[1]!.slice(0, 200) }
  return { kind: 'failed', reason: `clamd answered ${JSON.stringify(line.slice(0, 200))}` }
}
