/**
 * A throwaway Ceph cluster with its S3 gateway, for tests of the S3 blob store against a real S3-compatible
 * server: one monitor, one OSD on memstore (RAM, nothing on disk but logs), radosgw on a free loopback port, a
 * user with known keys and one bucket. No systemd and no cephx: everything runs in the foreground as our child
 * processes, configured by one ceph.conf in a temp dir. Starting takes about 15 s, so a test run shares one
 * cluster (`sharedCeph`), stopped when the test process exits. The test command starts one for all its test
 * processes and passes its gateway in PDFSHARE_TEST_CEPH (scripts/test.ts): then that one is used.
 *
 * Needs Debian's packages: apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { watchdog } from './watchdog'

export type CephGateway = {
  endpoint: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  region: string
  /** Creates another bucket, e.g. one per test app, so that each sees only its own objects. */
  createBucket(name: string): Promise<void>
  stop(): Promise<void>
}

const PACKAGES = 'apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd'
const BINARIES = ['ceph-authtool', 'monmaptool', 'ceph-mon', 'ceph-osd', 'ceph', 'radosgw', 'radosgw-admin']

let shared: Promise<CephGateway> | undefined

/** Where the test command passes the gateway it started for the whole run (JSON of `gatewayInfo`). */
export const SHARED_CEPH = 'PDFSHARE_TEST_CEPH'

/** One cluster for the whole test process (or the test command's), started on first use. */
export function sharedCeph(): Promise<CephGateway> {
  const given = process.env[SHARED_CEPH]
  shared ??= given ? Promise.resolve(gatewayAt(JSON.parse(given))) : startCeph()
  return shared
}

type GatewayInfo = Pick<CephGateway, 'endpoint' | 'bucket' | 'accessKeyId' | 'secretAccessKey' | 'region'>

/** What another process needs to use `gateway` (its keys are the fixed test keys). */
export const gatewayInfo = ({ endpoint, bucket, accessKeyId, secretAccessKey, region }: GatewayInfo): GatewayInfo => ({
  endpoint,
  bucket,
  accessKeyId,
  secretAccessKey,
  region,
})

/** The gateway another process started (and stops). */
function gatewayAt(info: GatewayInfo): CephGateway {
  return { ...info, createBucket: (name) => createBucket(info, name), stop: async () => {} }
}

export async function startCeph(): Promise<CephGateway> {
  const missing = BINARIES.filter((name) => !Bun.which(name))
  if (missing.length > 0) throw new Error(`Ceph is not installed (missing ${missing.join(', ')}); install it with: ${PACKAGES}`)

  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-ceph-'))
  for (const sub of ['run', 'log', 'mon', 'osd']) mkdirSync(join(dir, sub))
  const [monV2, monV1, rgwPort] = await freePorts(3)
  const conf = join(dir, 'ceph.conf')
  const fsid = crypto.randomUUID()
  writeFileSync(
    conf,
    `[global]
fsid = ${fsid}
mon host = [v2:127.0.0.1:${monV2},v1:127.0.0.1:${monV1}]
auth cluster required = none
auth service required = none
auth client required = none
osd objectstore = memstore
memstore device bytes = 1073741824
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
run dir = ${dir}/run
log file = ${dir}/log/$name.log
admin socket = ${dir}/run/$name.asok
mon data = ${dir}/mon/$name
osd data = ${dir}/osd/$name
keyring = ${dir}/keyring
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
# Without cephx, radosgw's default "secure" mode to the monitor hangs (get_initial_auth_request returned -13).
ms mon client mode = crc
`,
  )
  const processes: Bun.Subprocess[] = []
  // Once this process is gone, however it ended: the daemons (listed in run/pids) killed, the dir removed.
  const pids = join(dir, 'run', 'pids')
  writeFileSync(pids, '')
  const endWatchdog = watchdog('ceph', `kill -9 $(cat "$2") 2>/dev/null; rm -rf "$3"`, [pids, dir])
  const stop = async () => {
    endWatchdog()
    for (const proc of processes.toReversed()) proc.kill('SIGKILL')
    await Promise.all(processes.map((proc) => proc.exited))
    processes.length = 0
    rmSync(dir, { recursive: true, force: true })
  }
  const daemon = (cmd: string[]) => {
    const proc = Bun.spawn(cmd, { stdin: 'ignore', stdout: 'ignore', stderr: Bun.file(join(dir, 'log', `${cmd[0]}.stderr`)) })
    processes.push(proc)
    appendFileSync(pids, `${proc.pid}\n`)
  }
  const ceph = (cmd: string[]) => run([cmd[0]!, '-c', conf, ...cmd.slice(1)])

  try {
    const accessKeyId = 'PDFSHARETESTKEY00001'
    const secretAccessKey = 'pdfshare-test-secret-0000000000000000000'
    const bucket = 'pdfshare-test'
    await run(['ceph-authtool', '--create-keyring', join(dir, 'keyring'), '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *'])
    await run([
      'monmaptool',
      '--create',
      '--fsid',
      fsid,
      '--addv',
      'a',
      `[v2:127.0.0.1:${monV2},v1:127.0.0.1:${monV1}]`,
      join(dir, 'monmap'),
    ])
    await ceph(['ceph-mon', '--mkfs', '-i', 'a', '--monmap', join(dir, 'monmap'), '--keyring', join(dir, 'keyring')])
    daemon(['ceph-mon', '-c', conf, '-i', 'a', '-f'])
    const osdUuid = crypto.randomUUID()
    const osdId = (await ceph(['ceph', '--connect-timeout', '30', 'osd', 'new', osdUuid])).trim()
    mkdirSync(join(dir, 'osd', `osd.${osdId}`))
    await ceph(['ceph-osd', '--mkfs', '-i', osdId, '--osd-uuid', osdUuid])
    daemon(['ceph-osd', '-c', conf, '-i', osdId, '-f'])
    daemon(['radosgw', '-c', conf, '-n', 'client.rgw.a', '-f'])
    const endpoint = `http://127.0.0.1:${rgwPort}`
    await waitFor(endpoint, dir)
    await ceph([
      'radosgw-admin',
      '-n',
      'client.rgw.a',
      'user',
      'create',
      '--uid=pdfshare',
      '--display-name=pdfshare',
      `--access-key=${accessKeyId}`,
      `--secret=${secretAccessKey}`,
    ])
    const keys = { endpoint, accessKeyId, secretAccessKey, region: 'us-east-1' }
    await createBucket(keys, bucket)
    return { ...keys, bucket, createBucket: (name) => createBucket(keys, name), stop }
  } catch (error) {
    // The logs stay for a look at what failed.
    for (const proc of processes) proc.kill('SIGKILL')
    throw new Error(`the Ceph test cluster did not start (logs in ${dir}/log): ${error instanceof Error ? error.message : error}`)
  }
}

/** PUT Bucket, signed with AWS Signature V4: Bun's S3 client has no call that creates a bucket. */
async function createBucket(
  gateway: Pick<CephGateway, 'endpoint' | 'accessKeyId' | 'secretAccessKey' | 'region'>,
  bucket: string,
): Promise<void> {
  const url = new URL(`/${bucket}`, gateway.endpoint)
  const now = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')
  const day = now.slice(0, 8)
  const payloadHash = sha256Hex('')
  const headers: Record<string, string> = { host: url.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': now }
  const signed = Object.keys(headers).sort()
  const canonicalHeaders = signed.map((name) => `${name}:${headers[name]}\n`).join('')
  const canonical = ['PUT', url.pathname, '', canonicalHeaders, signed.join(';'), payloadHash].join('\n')
  const scope = `${day}/${gateway.region}/s3/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', now, scope, sha256Hex(canonical)].join('\n')
  let key: Uint8Array | string = `AWS4${gateway.secretAccessKey}`
  for (const part of [day, gateway.region, 's3', 'aws4_request']) key = hmac(key, part)
  const signature = Buffer.from(hmac(key, toSign)).toString('hex')
  const authorization = `AWS4-HMAC-SHA256 Credential=${gateway.accessKeyId}/${scope}, SignedHeaders=${signed.join(';')}, Signature=${signature}`
  const response = await fetch(url, { method: 'PUT', headers: { ...headers, authorization } })
  if (!response.ok) throw new Error(`creating the bucket failed: ${response.status} ${await response.text()}`)
  // The gateway answers the first request of a new bucket slowly (about 2 s when quiet; on a loaded machine
  // beyond the store's 5 s limit, and a migration into it stopped with "the S3 store sent no answer within 5 s").
  // Every bucket the product meets has been in use: asked once here, as such a bucket has been.
  const { endpoint, accessKeyId, secretAccessKey, region } = gateway
  const client = new Bun.S3Client({ endpoint, accessKeyId, secretAccessKey, region, bucket, virtualHostedStyle: false })
  await client.exists('warm-up')
}

const sha256Hex = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')
const hmac = (key: Uint8Array | string, text: string) => new Uint8Array(new Bun.CryptoHasher('sha256', key).update(text).digest())

async function run(cmd: string[]): Promise<string> {
  const proc = Bun.spawn(cmd, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited with ${code}:\n${stderr}${stdout}`)
  return stdout
}

/** The gateway answers once its pools exist (on a cold cluster, 10 s or more). */
async function waitFor(endpoint: string, dir: string): Promise<void> {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    const answered = await fetch(endpoint, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    )
    if (answered) return
    await Bun.sleep(250)
  }
  throw new Error(`radosgw did not answer within 90 s; logs in ${dir}/log`)
}

async function freePorts(count: number): Promise<number[]> {
  const listeners = Array.from({ length: count }, () => Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } }))
  const ports = listeners.map((listener) => listener.port)
  for (const listener of listeners) listener.stop(true)
  return ports
}

/** The PDFSHARE_S3_* settings for `bucket` on the test gateway (without PDFSHARE_STORAGE). */
export function s3SettingsOf(gateway: CephGateway, bucket: string): Record<string, string> {
  return {
    PDFSHARE_S3_ENDPOINT: gateway.endpoint,
    PDFSHARE_S3_BUCKET: bucket,
    PDFSHARE_S3_REGION: gateway.region,
    PDFSHARE_S3_ACCESS_KEY_ID: gateway.accessKeyId,
    PDFSHARE_S3_SECRET_ACCESS_KEY: gateway.secretAccessKey,
  }
}
