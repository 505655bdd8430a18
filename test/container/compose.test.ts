import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../../scripts/support/process'

// The two compose files, read as YAML and checked against what the image and docs/scale-out.md need. They are
// not brought up here: no image can be pulled (PostgreSQL, HAProxy, the bucket), and Debian's podman-compose
// 1.0.3 ignores `configs` and the project name. podman.test.ts runs the image itself as compose.yaml describes.
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
