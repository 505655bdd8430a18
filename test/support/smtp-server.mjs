// A real SMTP server for the mail tests: the `smtp-server` package (from the nodemailer project), run by Node on
// loopback as its own process, with STARTTLS (the key and certificate given) and AUTH (user "mailer", password
// "mail password"). Usage: node smtp-server.mjs PORT KEY CERT [TEMPORARY_REFUSALS]; with KEY and CERT "-" it is a
// plain server without STARTTLS or AUTH (for the outbox's own tests, which run in a process without the test CA).
// It prints "ready", then one JSON line per message it accepts: {"from", "to", "data"}. The first
// TEMPORARY_REFUSALS messages get "451 try again later"; a recipient at refuse.test gets "550 no such user". With
// HOLD_MS, each message is held that long after its data before the server accepts it (printing {"holding": to}
// when the hold starts), for the tests that kill a sender mid-send.
import { readFileSync } from 'node:fs'
import { SMTPServer } from 'smtp-server'

const [port, keyPath, certPath, refusals = '0', holdMs = '0'] = process.argv.slice(2)
let refuseNext = Number(refusals)

const plain = keyPath === '-'
const server = new SMTPServer({
  ...(plain ? { disabledCommands: ['STARTTLS', 'AUTH'] } : { key: readFileSync(keyPath), cert: readFileSync(certPath) }),
  authMethods: ['PLAIN', 'LOGIN'],
  // AUTH only once the connection is encrypted (the default): a client that skips STARTTLS cannot sign in.
  onAuth(auth, _session, callback) {
    if (auth.username === 'mailer' && auth.password === 'mail password') return callback(null, { user: 'mailer' })
    return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
  },
  onRcptTo(address, _session, callback) {
    if (address.address.endsWith('@refuse.test')) return callback(Object.assign(new Error('no such user'), { responseCode: 550 }))
    return callback()
  },
  onData(stream, session, callback) {
    const chunks = []
    stream.on('data', (chunk) => chunks.push(chunk))
    stream.on('end', () => {
      if (refuseNext > 0) {
        refuseNext--
        return callback(Object.assign(new Error('try again later'), { responseCode: 451 }))
      }
      const data = Buffer.concat(chunks).toString('utf8')
      const to = session.envelope.rcptTo.map((r) => r.address)
      const accept = () => {
        console.log(JSON.stringify({ from: session.envelope.mailFrom.address, to, secure: session.secure, data }))
        callback(null, 'Message queued as test-1')
      }
      if (Number(holdMs) === 0) return accept()
      console.log(JSON.stringify({ holding: to }))
      setTimeout(accept, Number(holdMs))
    })
  },
  logger: false,
})
server.listen(Number(port), '127.0.0.1', () => console.log('ready'))
