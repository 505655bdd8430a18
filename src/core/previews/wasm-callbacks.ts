/**
 * A JavaScript function that C code inside a wasm instance can call through a function pointer: all its
 * parameters are i32 (wasm32 pointers, ints, longs), and it returns an i32 or nothing.
 */
export type Callback = { params: number; returns: boolean; call: (...args: number[]) => number | undefined }

/**
 * Puts JavaScript functions into a wasm instance's function table at the given slots, so C code calling
 * through those slots calls them. A table entry must be a wasm function of the right type, and Bun has no
 * `WebAssembly.Function` to make one, so a tiny module is assembled that imports each function with its type
 * and exports it again (what emscripten's own addFunction does where the build includes it; PDFium's build
 * does not).
 */
export function putCallbacks(table: WebAssembly.Table, slots: number[], callbacks: Callback[]): void {
  const module = new WebAssembly.Module(trampolineModule(callbacks))
  const imports = Object.fromEntries(callbacks.map((callback, i) => [`f${i}`, callback.call]))
  const { exports } = new WebAssembly.Instance(module, { js: imports })
  callbacks.forEach((_, i) => {
    table.set(slots[i]!, exports[`f${i}`] as () => void)
  })
}

const I32 = 0x7f

/** The bytes of a module with one type, one import ("js", "f<i>") and one export ("f<i>") per callback. */
function trampolineModule(callbacks: Callback[]): Uint8Array<ArrayBuffer> {
  const name = (i: number) => [...bytesOf(`f${i}`)]
  const types = vector(
    callbacks.map(({ params, returns }) => [0x60, ...vector(Array(params).fill([I32])), ...vector(returns ? [[I32]] : [])]),
  )
  const imports = vector(callbacks.map((_, i) => [...withLength([...bytesOf('js')]), ...withLength(name(i)), 0x00, ...leb(i)]))
  const exports = vector(callbacks.map((_, i) => [...withLength(name(i)), 0x00, ...leb(i)]))
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, types),
    ...section(2, imports),
    ...section(7, exports),
  ])
}

const bytesOf = (text: string) => new TextEncoder().encode(text)
const withLength = (bytes: number[]) => [...leb(bytes.length), ...bytes]
const section = (id: number, body: number[]) => [id, ...withLength(body)]

/** A wasm vector: its element count, then the elements. */
function vector(items: number[][]): number[] {
  return [...leb(items.length), ...items.flat()]
}

/** Unsigned LEB128, as wasm writes counts and sizes. */
function leb(value: number): number[] {
  const out: number[] = []
  do {
    let byte = value & 0x7f
    value >>>= 7
    if (value !== 0) byte |= 0x80
    out.push(byte)
  } while (value !== 0)
  return out
}
