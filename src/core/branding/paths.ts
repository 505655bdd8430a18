/** Where the branding's files are served, under the public URL's path (routes/branding serves them). */
export const brandPaths = (basePath: string) => ({
  /** The accent's stylesheet; the version makes each accent's text an address of its own, cached for a year. */
  stylesheet: (version: string) => `${basePath}/branding.css?v=${version}`,
  /** A logo by its hash: a new logo is a new address. */
  logo: (hash: string) => `${basePath}/branding/logo/${hash}.png`,
})
