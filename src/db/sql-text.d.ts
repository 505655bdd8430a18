// Bun imports any file as a string with `with { type: 'text' }`; the migrations index uses it for .sql files.
declare module '*.sql' {
  const text: string
  export default text
}
