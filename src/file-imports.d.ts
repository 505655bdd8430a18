// `import path from '….wasm' with { type: 'file' }` gives the file's path (inside the binary when compiled).
declare module '*.wasm' {
  const path: string
  export default path
}

declare module '*.png' {
  const path: string
  export default path
}

declare module '*.ttf' {
  const path: string
  export default path
}

declare module '*.otf' {
  const path: string
  export default path
}
