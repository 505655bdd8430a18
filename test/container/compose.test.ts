import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { ensureTestBase, freePort, podman, podmanCompose, TEST_BASE } from '../../scripts/support/podman'
import { ROOT } from '../../scripts/support/process'
import { bearer } from '../support/bearer'
import { skipWithout } from '../support/host-tools'
import { uploadPdfTo } from '../support/uploads'

// The two compose files, read as YAML and checked against what the image and docs/scale-out.md need; and
// compose.yaml brought up for real with Debian's podman-compose (build, health, the CLI through exec, an upload,
// down and up again on its volume). compose.scale-out.yaml is not brought up: its other images (PostgreSQL,
// HAProxy, the bucket) cannot be pulled here, and Debian's podman-compose 1.0.3 ignores `configs`.
type Service = {
  image?: string
  build?: { context: string; dockerfile: string }
  ports?: string[]
  environment?: Record<string, string>
  volumes?: string[]
  stop_grace_period?: string
  configs?: { source: string; target: string }[]
  depends_on?: unknown
}
type Compose = {
  name: string
  services: Record<string, Service>
  volumes?: Record<string, unknown>
  configs?: Record<string, { content: string }>
}

const load = (file: string) => Bun.YAML.parse(readFileSync(join(ROOT, file), 'utf8')) as Compose
const seconds = (duration: string | undefined) => Number(/^(\d+)s$/.exec(duration ?? '')?.[1] ?? 0)

test('compose.yaml: one pdfshare from the Containerfile, port 3000, the data on a named volume, PUID/PGID', () => {
  const compose = load('compose.yaml')
  expect(Object.keys(compose.services)).toEqual(['pdfshare'])
  const service = compose.services.pdfshare!
  expect(service.build).toEqual({ context: '.', dockerfile: 'Containerfile' })
  expect(service.ports).toEqual(['3000:3000'])
  expect(service.volumes).toEqual(['pdfshare-data:/data'])
  expect(Object.keys(compose.volumes ?? {})).toEqual(['pdfshare-data'])
  expect(service.environment).toMatchObject({ PUID: '1000', PGID: '1000' })
  // Longer than PDFSHARE_SHUTDOWN_TIMEOUT's 30 s, so a stop lets in-flight requests finish.
  expect(seconds(service.stop_grace_period)).toBeGreaterThan(30)
})

test('compose.scale-out.yaml: three instances on one database and bucket, each with its own data dir, behind HAProxy', () => {
  const compose = load('compose.scale-out.yaml')
  const instances = Object.entries(compose.services).filter(([name]) => name.startsWith('pdfshare-'))
  expect(instances.map(([name]) => name)).toEqual(['pdfshare-a', 'pdfshare-b', 'pdfshare-c'])
  const environments = instances.map(([, service]) => service.environment)
  for (const environment of environments) expect(environment).toEqual(environments[0]!)
  expect(environments[0]).toMatchObject({
    PDFSHARE_STORAGE: 's3',
    PDFSHARE_TRUST_PROXY: '1',
    PDFSHARE_S3_ENDPOINT: 'http://s3:8333',
    PDFSHARE_S3_BUCKET: 'pdfshare',
  })
  expect(environments[0]!.PDFSHARE_DATABASE_URL).toStartWith('postgres://pdfshare:')
  expect(new Set(instances.map(([, service]) => service.volumes?.[0]?.split(':')[0])).size).toBe(3)
  for (const [, service] of instances) expect(service.build).toEqual({ context: '.', dockerfile: 'Containerfile' })

  const haproxy = compose.configs?.haproxy?.content ?? ''
  expect(haproxy).toContain('option httpchk GET /api/health')
  expect(haproxy).toContain('option forwardfor')
  // The retry rules of docs/scale-out.md: a write that may have reached an instance is never sent to another.
  expect(haproxy).toContain('option httpclose')
  expect(haproxy).toContain('http-request disable-l7-retry unless METH_GET')
  for (const [name] of instances) expect(haproxy).toContain(`${name}:3000 check`)
  expect(compose.services.balancer?.configs?.[0]?.target).toBe('/usr/local/etc/haproxy/haproxy.cfg')
  expect(compose.services.balancer?.ports).toEqual(['8080:8080'])
  // 16 connections an instance (docs/scale-out.md) fit into the database's limit.
  const maxConnections = Number(/max_connections=(\d+)/.exec(JSON.stringify(compose.services.postgres))?.[1])
  expect(maxConnections).toBeGreaterThan(instances.length * 16)
})

const skipUp = skipWithout(
  ['/usr/bin/podman', '/usr/sbin/runc', '/usr/bin/mmdebstrap', '/usr/bin/podman-compose'],
  'apt-get install -y podman podman-compose runc mmdebstrap',
)
const project = `pdfshare-compose-test-${process.pid}`
const scratch = mkdtempSync(join(tmpdir(), 'pdfshare-compose-'))
afterAll(async () => {
  if (!skipUp) {
    await podman(['rm', '--force', '--time', '0', `${project}_pdfshare_1`], { allowFailure: true })
    await podman(['volume', 'rm', '--force', `${project}_pdfshare-data`], { allowFailure: true })
    await podman(['rmi', '--force', `localhost/${project}:latest`], { allowFailure: true })
    await podman(['network', 'rm', '--force', `${project}_default`], { allowFailure: true })
  }
  rmSync(scratch, { recursive: true, force: true })
})

test.skipIf(skipUp)(
  'compose.yaml comes up with podman-compose: health, the CLI through exec, an upload; after down and up the file is still there',
  async () => {
    expect(existsSync(join(ROOT, 'dist', 'pdfshare'))).toBe(true)
    await ensureTestBase(() => {})
    // compose.yaml as it is, but for three things a test machine needs: a free host port (3000 may be taken), an
    // image name of its own (a `localhost/pdfshare` of the machine's owner stays), and the build context by its
    // absolute path (the copy lives elsewhere). Written as JSON, which is YAML too.
    const port = freePort()
    const compose = load('compose.yaml')
    const service = compose.services.pdfshare!
    expect(service.ports).toEqual(['3000:3000'])
    service.ports = [`127.0.0.1:${port}:3000`]
    service.image = `localhost/${project}:latest`
    service.build = { context: ROOT, dockerfile: 'Containerfile' }
    const file = join(scratch, 'compose.yaml')
    writeFileSync(file, JSON.stringify(compose))
    const url = `http://127.0.0.1:${port}`
    const healthy = async () => {
      for (let i = 0; i < 1200; i++) {
        if (
          await fetch(`${url}/api/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          return
        await Bun.sleep(25)
      }
      throw new Error(
        `compose.yaml's pdfshare did not answer:\n${(await podman(['logs', `${project}_pdfshare_1`], { allowFailure: true })).err}`,
      )
    }

    let started = performance.now()
    await podmanCompose(project, file, ['up', '-d', '--build'])
    await healthy()
    console.log(`  [compose] up --build → /api/health answered in ${((performance.now() - started) / 1000).toFixed(2)} s`)
    expect((await podman(['image', 'exists', TEST_BASE], { allowFailure: true })).code).toBe(0)
    const exec = (args: string[]) => podmanCompose(project, file, ['exec', '-T', 'pdfshare', 'pdfshare', ...args])
    expect((await exec(['user', 'add', 'alice'])).out).toContain('created user alice')
    const token = /^(\S+\.\S+\.\S+)$/m.exec((await exec(['token', 'issue', 'alice'])).out)?.[1]
    expect(token).toBeDefined()
    const pdf = makePdf({ pages: 1 })
    const uploaded = await uploadPdfTo(url, token!, pdf, { title: 'Composed' })

    // `down` removes the container and keeps the named volume; `up` again (no build) serves the same file.
    await podmanCompose(project, file, ['down'])
    expect((await podman(['volume', 'exists', `${project}_pdfshare-data`], { allowFailure: true })).code).toBe(0)
    started = performance.now()
    await podmanCompose(project, file, ['up', '-d'])
    await healthy()
    console.log(`  [compose] up again → /api/health answered in ${((performance.now() - started) / 1000).toFixed(2)} s`)
    const content = await fetch(`${url}/api/files/${uploaded.id}/content`, { headers: bearer(token!) })
    expect(content.status).toBe(200)
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(pdf)
    await podmanCompose(project, file, ['down'])
  },
  300_000,
)
